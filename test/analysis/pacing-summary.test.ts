/**
 * The run's pacing (`--bitrate`), per sending side: the mechanism its stream ends used when they all
 * said and agree, 'mixed' when they differ, 'unknown' when any end did not say (an older peer), never
 * assumed; the highest pacing rate its kernel reported, leaving out 0, missing readings and the
 * kernel's "no limit" value (~2^64); the total is the asked rate times the streams. An unpaced run
 * has no pacing figure at all.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarizePacing, type PacedEnd } from '../../electron/analysis/pacing-summary.js';
import { PACING_KERNEL, PACING_OWN, type StreamPacing } from '../../electron/contract/pacing-info.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { makeResult } from '../helpers/result-fixtures.js';

const kernel: StreamPacing = { mechanism: PACING_KERNEL, reason: null, kernelCapBytesPerSec: 1_250_000 };
const own: StreamPacing = { mechanism: PACING_OWN, reason: 'SO_MAX_PACING_RATE: not on this OS', kernelCapBytesPerSec: null };

function paced(bitrate: number | undefined, streams: number): Pick<LonghaulResult, 'params'> {
  const r = makeResult({ streams: Array.from({ length: streams }, () => ({ bytes: 1, seconds: 1, completions: 1 })) });
  return { params: { ...r.params, streams, ...(bitrate === undefined ? {} : { bitrateBitsPerSec: bitrate }) } };
}

describe('pacing summary', () => {
  it('an unpaced run has none', () => {
    assert.equal(summarizePacing(paced(undefined, 2), [{ side: 'controller', pacing: kernel, kernelRates: [] }]), undefined);
  });

  it("per side: the ends' one mechanism, the kernel's highest real rate; total = asked × streams", () => {
    const ends: PacedEnd[] = [
      { side: 'controller', pacing: kernel, kernelRates: [9e6, 10e6, null, 0] },
      { side: 'controller', pacing: kernel, kernelRates: [undefined, 2 ** 64 - 1, 9.5e6] },
    ];
    const p = summarizePacing(paced(10e6, 2), ends);
    assert.ok(p);
    assert.deepEqual([p.requestedBitsPerSec, p.totalBitsPerSec, p.scope], [10e6, 20e6, 'per stream']);
    assert.deepEqual(p.sides, [{ side: 'controller', mechanism: PACING_KERNEL, streams: 2, reason: null, kernelPacingBitsPerSec: 10e6 }]);
  });

  it("'mixed' when the ends differ (with the reason one gave), 'unknown' when one did not say", () => {
    const p = summarizePacing(paced(5e6, 2), [
      { side: 'controller', pacing: kernel, kernelRates: [] },
      { side: 'controller', pacing: own, kernelRates: [] },
      { side: 'responder', pacing: own, kernelRates: [] },
      { side: 'responder', pacing: null, kernelRates: [] },
    ]);
    assert.deepEqual(
      p?.sides.map((s) => [s.side, s.mechanism, s.reason, s.kernelPacingBitsPerSec]),
      [
        ['controller', 'mixed', own.reason, null],
        ['responder', 'unknown', own.reason, null],
      ],
    );
  });
});
