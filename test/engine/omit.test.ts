/**
 * `-O, --omit` over a recorded run: the omitted seconds stay in the intervals, marked, and are
 * really out of the totals and the diagnosis. The run below is slow in its first second (slow
 * start: 1 MB) and fast after (50 MB a second) with 40 retransmits in the first second only: with
 * -O 1 the totals are the fast seconds' and the diagnosis counts no retransmits; without, the slow
 * second drags the rate down and the retransmits are there. Fails if the totals or the analysis
 * still read the omitted second.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult, TcpSample } from '../../electron/contract/result.js';
import { planStreams } from '../../electron/contract/stream-plan.js';
import { DEFAULT_PARAMS, type RunParams } from '../../electron/protocol/run-params.js';
import { RunRecorder } from '../../electron/engine/session/run-recorder.js';
import { runParamsFromFlags } from '../../electron/cli/run-options.js';

const MB = 1_000_000;
/** Cumulative bytes at the end of each second: 1 MB, then 50 MB a second. */
const CUMULATIVE = [1 * MB, 51 * MB, 101 * MB];

function reading(index: number, retrans: number): TcpSample {
  return {
    index,
    t: index,
    rttUs: 1000,
    rttVarUs: 10,
    minRttUs: 900,
    sndCwndSegments: 100,
    sndCwndBytes: 144_800,
    totalRetransSegments: retrans,
    sndWndBytes: 4 * MB,
    rcvSpaceBytes: null,
    deliveryRateBitsPerSecond: null,
    busyUs: index * 1e6,
    rwndLimitedUs: 0,
    sndbufLimitedUs: 0,
    unackedSegments: 10,
    notSentBytes: 0,
  };
}

function record(omitSeconds?: number): LonghaulResult {
  const params: RunParams = { ...DEFAULT_PARAMS, seconds: 3, ...(omitSeconds ? { omitSeconds } : {}) };
  const r = new RunRecorder(
    {
      id: 'x',
      software: 'test',
      writtenBy: 'controller',
      controller: { hostname: 'c', address: 'local', software: 't' },
      responder: { hostname: 'r', address: 'x', software: 't' },
      params,
      window: { requestedBytes: null, applied: false, note: 'OS default (autotuning)' },
      startedAt: new Date(0),
    },
    planStreams(params),
  );
  CUMULATIVE.forEach((bytes, i) => {
    const index = i + 1;
    r.addSample('controller', { index, t: index, final: false, streams: [[0, bytes, index]], tcp: [[0, reading(index, 40)]] });
    r.addSample('responder', { index, t: index, final: false, streams: [[0, bytes, index * 10]] });
  });
  r.setEnds('controller', [{ id: 0, role: 'send', bytes: 101 * MB, completions: 3, firstT: 0, lastT: 3, error: null }]);
  r.setEnds('responder', [{ id: 0, role: 'receive', bytes: 101 * MB, completions: 30, firstT: 0, lastT: 3, error: null }]);
  return r.build();
}

describe('-O, --omit', () => {
  it('keeps the omitted second in the intervals, marked, and leaves it out of the totals', () => {
    const all = record();
    const omitted = record(1);
    assert.deepEqual(
      omitted.intervals.map((iv) => Boolean(iv.omitted)),
      [true, false, false],
    );
    assert.equal(omitted.params.omitSeconds, 1);
    assert.equal(all.total.bytes, 101 * MB);
    assert.equal(omitted.total.bytes, 100 * MB, 'bytes of the omitted second are out');
    assert.equal(omitted.total.seconds, 2, 'the totals cover the 2 s after it');
    assert.equal(omitted.total.bitsPerSecond, (100 * MB * 8) / 2);
    assert.equal(omitted.total.sentBytes, 100 * MB);
    assert.equal(omitted.streams[0]?.bytes, 100 * MB);
    assert.equal(omitted.streams[0]?.completions, 20);
    assert.ok((all.total.bitsPerSecond ?? 0) < (omitted.total.bitsPerSecond ?? 0) * 0.7, 'the slow second weighs on the rate without -O');
  });

  it('leaves it out of the verdict: the measured rate and the retransmits are those after it', () => {
    const all = record();
    const omitted = record(1);
    assert.equal(omitted.diagnosis?.[0]?.numbers.measuredBitsPerSecond, omitted.total.bitsPerSecond);
    assert.equal(all.diagnosis?.[0]?.numbers.retransSegments, 40);
    assert.equal(omitted.diagnosis?.[0]?.numbers.retransSegments, 0, 'the 40 retransmits of the omitted second are not counted');
  });

  it('refuses a value not shorter than the run, naming --omit (exit 2)', () => {
    const base = { streams: 1, buffer: 131072, interval: 1, seconds: 3 };
    assert.throws(
      () => runParamsFromFlags({ ...base, omit: 3 }),
      (e: Error & { exitCode?: number }) => /--omit/.test(e.message),
    );
    assert.equal(runParamsFromFlags({ ...base, omit: 1 }).omitSeconds, 1);
  });
});
