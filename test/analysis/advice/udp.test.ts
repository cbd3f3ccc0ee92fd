/**
 * UDP's one change (analysis/advice/udp.ts) where the receiving PC's OS does not count its own drops
 * (Windows): the change stays a lower rate, and a receive buffer too small to hold a scheduling gap
 * of its stream is named beside it, with the -w that tells the path's loss from the PC's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { udpAdvice } from '../../../electron/analysis/advice/udp.js';
import type { Diagnosis, LonghaulResult } from '../../../electron/contract/result.js';

/** A forward run of one stream at `bps` with `-w` of `window` bytes, which its OS read back as `effective`. */
function result(bps: number, window: number | null, effective: number | null): LonghaulResult {
  return {
    params: { protocol: 'udp', direction: 'forward', streams: 1, bitrateBitsPerSec: bps, windowBytes: window },
    window: { requestedBytes: window, applied: true, note: '', effectiveRcvBufBytes: effective === null ? null : { min: effective, max: effective } },
  } as unknown as LonghaulResult;
}

function dropped(drops: number | null): Diagnosis {
  return {
    case: 'loss-limited/udp-dropped',
    figures: {
      lossRatio: { value: 0.1, unit: 'share', source: 'measured' },
      ...(drops !== null ? { receiverDrops: { value: drops, unit: 'count', source: 'measured' } } : {}),
    },
  } as unknown as Diagnosis;
}

describe('UDP advice: loss where the receiving PC does not count its drops', () => {
  it('a 4 KiB buffer at 40 Mbit/s (0.82 ms of the stream) is named, with the -w to try; the change is still the rate', () => {
    const a = udpAdvice(dropped(null), result(40e6, 4096, 4096));
    assert.equal(a?.line.control?.kind, 'udp-rate');
    assert.match(
      a?.line.why ?? '',
      /does not say how many it dropped itself, and each receiving socket's buffer \(4,096 bytes\) holds only 0\.82 ms of its stream: a larger -w \(1M\)/,
    );
  });

  it('a buffer that holds 50 ms or more, a count the OS gave, or a buffer not read back: nothing added', () => {
    // 2 MiB at 40 Mbit/s holds 0.42 s.
    assert.doesNotMatch(udpAdvice(dropped(null), result(40e6, 2 << 20, 2 << 20))?.line.why ?? '', /holds only/);
    // Linux counted none at the socket: the loss is the path's, the buffer is not a suspect.
    assert.doesNotMatch(udpAdvice(dropped(0), result(40e6, 4096, 8192))?.line.why ?? '', /holds only/);
    assert.doesNotMatch(udpAdvice(dropped(null), result(40e6, 4096, null))?.line.why ?? '', /holds only/);
  });
});
