import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planStreams } from '../../../electron/contract/stream-plan.js';
import { DEFAULT_PARAMS, type RunParams } from '../../../electron/protocol/run-params.js';
import type { TcpSample } from '../../../electron/contract/result.js';
import { MAX_LAG_TICKS, RunRecorder } from '../../../electron/engine/session/run-recorder.js';
import { HEAD_CELLS } from '../../../electron/analysis/detail-rule.js';

function recorder(params: RunParams, detailCells?: number): RunRecorder {
  return new RunRecorder(
    {
      detailCells,
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
}

describe('RunRecorder intervals', () => {
  it("forward over a slow link: one clock (the receiver's), never a zero-length interval with bytes", () => {
    // The responder's clock runs 0.1 s behind (it heard "start" one one-way delay later).
    // The controller (sender) finishes at 5.39 s; the receiver still drains queued bytes until 5.95 s.
    const params = { ...DEFAULT_PARAMS, seconds: 5 };
    const r = recorder(params);
    for (let i = 1; i <= 5; i++) {
      r.addSample('controller', { index: i, t: i + 0.001, final: false, streams: [[0, i * 1000, i]] });
      r.addSample('responder', { index: i, t: i - 0.099, final: false, streams: [[0, i * 900, i]] });
    }
    r.addSample('controller', { index: 6, t: 5.39, final: true, streams: [[0, 5400, 6]] });
    r.addSample('responder', { index: 6, t: 5.95, final: true, streams: [[0, 5400, 7]] });
    r.setEnds('controller', [{ id: 0, role: 'send', bytes: 5400, completions: 6, firstT: 0, lastT: 5.39, error: null }]);
    r.setEnds('responder', [{ id: 0, role: 'receive', bytes: 5400, completions: 7, firstT: 0.01, lastT: 5.95, error: null }]);
    const res = r.build();
    assert.equal(res.intervals.length, 6);
    let prev = 0;
    for (const iv of res.intervals) {
      assert.ok(iv.t >= prev, 'never decreasing');
      assert.ok(iv.seconds > 0.05, `interval ${iv.index} lasts ${iv.seconds} s`);
      assert.equal(iv.t, iv.responderT, 'forward: the responder (receiver) clock');
      prev = iv.t;
    }
    assert.equal(
      res.intervals.reduce((a, i) => a + (i.receivedBytes ?? 0), 0),
      5400,
    );
    assert.equal(res.partial, false);
  });

  it('a side missing a tick: its time is taken from the other side, shifted onto the reference clock', () => {
    const params = { ...DEFAULT_PARAMS, seconds: 3, direction: 'reverse' as const };
    const r = recorder(params);
    r.addSample('controller', { index: 1, t: 1.0, final: false, streams: [[0, 100, 1]] });
    r.addSample('responder', { index: 1, t: 0.8, final: false, streams: [[0, 120, 1]] });
    r.addSample('controller', { index: 2, t: 2.0, final: false, streams: [[0, 200, 2]] });
    r.addSample('responder', { index: 2, t: 1.8, final: false, streams: [[0, 220, 2]] });
    r.addSample('responder', { index: 3, t: 2.8, final: false, streams: [[0, 320, 3]] }); // the controller's tick 3 never came
    const res = r.build();
    assert.equal(res.intervals[2]?.t, 2.8 + 0.2);
    assert.equal(res.intervals[2]?.controllerT, null);
    assert.equal(res.intervals[2]?.receivedBytes, null, 'the receiver (controller) did not sample it: unknown, not 0');
    assert.equal(res.partial, true, 'no end reports: partial');
  });
});

function tcpReading(index: number, sndWndBytes: number, rttUs: number): TcpSample {
  return {
    index,
    t: index / 10,
    rttUs,
    rttVarUs: 10,
    minRttUs: 100,
    sndCwndSegments: 10,
    sndCwndBytes: 14_480,
    totalRetransSegments: index,
    sndWndBytes,
    rcvSpaceBytes: null,
    deliveryRateBitsPerSecond: null,
    busyUs: index * 1000,
    rwndLimitedUs: 0,
    sndbufLimitedUs: 0,
    unackedSegments: 1,
    notSentBytes: 0,
  };
}

/** Feed `ticks` ticks of both sides (4 streams forward, 1000 bytes per stream per tick, TCP_INFO on the sender). */
function feed(r: RunRecorder, ticks: number, from = 1): void {
  for (let i = from; i < from + ticks; i++) {
    const streams: [number, number, number][] = [0, 1, 2, 3].map((id) => [id, i * 1000, i]);
    // One extreme advertised window deep in the middle, where the readings get thinned.
    const wnd = i === 3000 ? 1234 : 65_536;
    r.addSample('controller', { index: i, t: i / 10, final: false, streams, tcp: [0, 1, 2, 3].map((id) => [id, tcpReading(i, wnd, 100 + (i % 7))]) });
    r.addSample('responder', { index: i, t: i / 10 - 0.001, final: false, streams });
  }
}

describe('RunRecorder detail (bounded however long the run)', () => {
  const params = { ...DEFAULT_PARAMS, streams: 4, seconds: 600, intervalSeconds: 0.1 };

  it('a short run keeps every tick and says so', () => {
    const r = recorder(params);
    feed(r, 100);
    const res = r.build();
    assert.equal(res.intervals.length, 100);
    assert.ok(res.intervals.every((iv) => iv.ticks === undefined));
    assert.equal(res.streams[0]!.send!.tcp!.length, 100);
    assert.deepEqual({ thinned: res.detail?.thinned, ticks: res.detail?.ticksPerInterval }, { thinned: false, ticks: 1 });
  });

  it('a long run keeps its head and its end as sampled, merges the middle, and keeps every byte', () => {
    const r = recorder(params, 400);
    const ticks = 6000;
    feed(r, ticks);
    const res = r.build();
    const d = res.detail!;
    assert.equal(d.thinned, true);
    assert.equal(d.fullThroughIndex, 400 / 4);
    // At most about head + head groups + 2 × recent intervals, whatever the duration.
    assert.ok(res.intervals.length <= 2 * d.fullThroughIndex + 2 * 64 + 1, `${res.intervals.length} intervals`);
    assert.ok(res.intervals.length < ticks / 2);
    assert.equal(
      res.intervals.reduce((a, iv) => a + (iv.receivedBytes ?? 0), 0),
      ticks * 4 * 1000,
      'every byte is still counted',
    );
    assert.equal(
      res.intervals.reduce((a, iv) => a + (iv.ticks ?? 1), 0),
      ticks,
      'every tick is in one interval',
    );
    const head = res.intervals.filter((iv) => iv.index <= d.fullThroughIndex);
    assert.equal(head.length, d.fullThroughIndex);
    assert.ok(head.every((iv) => iv.ticks === undefined));
    const recent = res.intervals.filter((iv) => iv.index >= d.recentFromIndex!);
    assert.equal(recent.length, 64);
    assert.ok(recent.every((iv) => iv.ticks === undefined));
    const middle = res.intervals.filter((iv) => iv.index > d.fullThroughIndex && iv.index < d.recentFromIndex!);
    assert.ok(
      middle.slice(0, -1).every((iv) => iv.ticks === d.ticksPerInterval),
      `groups of ${d.ticksPerInterval}`,
    );
    // TCP_INFO: the same grouping, the group's last reading with the range of the gauges.
    const tcp = res.streams[0]!.send!.tcp!;
    assert.equal(tcp.length, res.intervals.length);
    assert.deepEqual(
      tcp.map((x) => x.index),
      res.intervals.map((iv) => iv.index),
    );
    const thinned = tcp.find((x) => x.spread);
    assert.equal(thinned?.spread?.readings, d.ticksPerInterval);
    assert.deepEqual(thinned?.spread?.rttUs, { min: 100, max: 106 });
    assert.equal(tcp.at(-1)!.totalRetransSegments, ticks, 'cumulative counters stay exact');
    assert.deepEqual(res.window.advertisedBytes, { min: 1234, max: 65_536 }, 'the advertised range covers thinned readings too');
  });

  it('holds a bounded record: no growth from the samples kept, nor from a peer gone quiet', () => {
    const r = recorder(params);
    feed(r, 20_000);
    const held = r as unknown as { intervals: { length: number }; pending: Record<string, Map<number, unknown>> };
    const bound = 2 * (HEAD_CELLS / 4) + 2 * 64 + 1;
    const after20k = held.intervals.length;
    feed(r, 20_000, 20_001);
    assert.ok(after20k <= bound && held.intervals.length <= bound, `${after20k} then ${held.intervals.length} intervals held`);
    // The responder goes quiet: the controller's samples wait for it a bounded while, then are built without it.
    for (let i = 40_001; i <= 42_000; i++) r.addSample('controller', { index: i, t: i / 10, final: false, streams: [[0, i * 1000, i]] });
    assert.ok(held.pending.controller!.size <= MAX_LAG_TICKS + 1, `${held.pending.controller!.size} samples pending`);
    const res = r.build();
    assert.equal(res.intervals.at(-1)!.index, 42_000);
    assert.equal(res.intervals.at(-1)!.responderT, null);
  });
});

describe('RunRecorder: a partial run is rated over the seconds measured', () => {
  const params = { ...DEFAULT_PARAMS, seconds: 10 };

  it("a receiver gone without its end report: its last sample's bytes over its start to that sample", () => {
    const r = recorder(params);
    // The responder (receiver) reads its first byte 0.002 s before its clock's 0, samples at 0.5 and 1.0 s, then vanishes.
    r.addSample('controller', { index: 1, t: 0.501, final: false, streams: [[0, 1_300_000, 10]] });
    r.addSample('responder', { index: 1, t: 0.5, final: false, streams: [[0, 1_250_000, 10]], from: -0.002 });
    r.addSample('controller', { index: 2, t: 1.001, final: false, streams: [[0, 2_600_000, 20]] });
    r.addSample('responder', { index: 2, t: 1.0, final: false, streams: [[0, 2_500_000, 20]] });
    r.addSample('controller', { index: 3, t: 1.501, final: false, streams: [[0, 3_900_000, 30]] });
    r.setEnds('controller', [{ id: 0, role: 'send', bytes: 4_000_000, completions: 31, firstT: 0, lastT: 1.53, error: null }]);
    r.markPartial('control connection lost');
    const res = r.build();
    assert.equal(res.total.bitsPerSecond, null, "the wall clock needs the receiver's last byte, which it never said");
    const expected = { seconds: 1.002, bitsPerSecond: (2_500_000 * 8) / 1.002, span: 'start-to-last-sample' };
    assert.equal(res.total.bytes, 2_500_000);
    assert.deepEqual(roundRate(res.total.partialRate), roundRate(expected));
    assert.deepEqual(roundRate(res.directions.controllerToResponder?.partialRate), roundRate(expected));
    assert.deepEqual(roundRate(res.streams[0]!.partialRate), roundRate(expected));
    assert.equal(res.diagnosis?.[0]?.numbers.measuredBitsPerSecond, res.total.partialRate?.bitsPerSecond, 'the verdict is of what was measured');
    // The partner is named as the header names it: host name and address.
    assert.equal(res.streams[0]!.receive?.error?.message, 'no end-of-run report from the responder r (x); counts are from its last sample');
  });

  it('a stopped run whose end reports came: its wall-clock figures, named partial', () => {
    const r = recorder(params);
    r.addSample('controller', { index: 1, t: 0.5, final: false, streams: [[0, 1000, 1]] });
    r.addSample('responder', { index: 1, t: 0.5, final: false, streams: [[0, 900, 1]] });
    r.setEnds('controller', [{ id: 0, role: 'send', bytes: 1500, completions: 2, firstT: 0, lastT: 0.7, error: null }]);
    r.setEnds('responder', [{ id: 0, role: 'receive', bytes: 1500, completions: 2, firstT: 0.01, lastT: 0.76, error: null }]);
    r.markPartial('stopped by the user');
    const res = r.build();
    assert.deepEqual(res.total.partialRate, { seconds: res.total.seconds, bitsPerSecond: res.total.bitsPerSecond, span: 'first-to-last-byte' });
  });

  it('a complete run carries none, nor does a partial run in which nothing arrived', () => {
    const whole = recorder(params);
    whole.setEnds('controller', [{ id: 0, role: 'send', bytes: 1500, completions: 2, firstT: 0, lastT: 0.7, error: null }]);
    whole.setEnds('responder', [{ id: 0, role: 'receive', bytes: 1500, completions: 2, firstT: 0.01, lastT: 0.76, error: null }]);
    assert.equal(whole.build().total.partialRate, undefined);
    const empty = recorder(params);
    empty.addSample('controller', { index: 1, t: 0.5, final: false, streams: [[0, 1000, 1]] });
    empty.addSample('responder', { index: 1, t: 0.5, final: false, streams: [[0, 0, 0]] });
    empty.markPartial('control connection lost');
    const res = empty.build();
    assert.equal(res.total.partialRate, undefined);
    assert.equal(res.diagnosis?.[0]?.case, 'unknown/nothing-measured');
  });
});

/** A rate to 6 significant digits, so float noise in a sum does not fail a comparison of the same figure. */
function roundRate(p: { seconds: number; bitsPerSecond: number; span: string } | undefined): unknown {
  return p && { seconds: Number(p.seconds.toPrecision(6)), bitsPerSecond: Number(p.bitsPerSecond.toPrecision(6)), span: p.span };
}
