/** History overlay data: per-interval aggregate rates, gaps for missing samples, labels, totals, the two-run selection. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decimate,
  describeParams,
  intervalRates,
  MAX_OVERLAY_POINTS,
  overlayRun,
  toggleCompare,
  type OverlayPoint,
} from '../../../renderer/src/lib/overlay-series.js';
import { makeIntervals, makeResult, recordRun } from '../../helpers/result-fixtures.js';

describe('overlay series', () => {
  it('turns received bytes per interval into aggregate bit/s at the interval end', () => {
    const intervals = makeIntervals([
      { t: 1, received: [125_000, 250_000] },
      { t: 2, received: [125_000, 125_000] },
      { t: 2.5, received: [62_500, 0] },
    ]);
    assert.deepEqual(intervalRates(intervals, 1), [
      { x: 1, y: 3e6 },
      { x: 2, y: 2e6 },
      { x: 2.5, y: 1e6 },
    ]);
  });

  it('leaves a gap (null), not a zero, where the receiver sample is missing', () => {
    const intervals = makeIntervals([
      { t: 1, received: [1000] },
      { t: 2, received: [1000] },
    ]);
    intervals[0]!.receivedBytes = null;
    assert.deepEqual(intervalRates(intervals, 1), [
      { x: 1, y: null },
      { x: 2, y: 8000 },
    ]);
  });

  it('drops only a final sliver interval (noise), never a normal short one or the only one', () => {
    const intervals = makeIntervals([
      { t: 1, received: [1000] },
      { t: 2, received: [1000] },
      { t: 2.01, received: [900] },
    ]);
    assert.deepEqual(
      intervalRates(intervals, 1).map((p) => p.x),
      [1, 2],
    );
    const last30 = makeIntervals([
      { t: 1, received: [1000] },
      { t: 1.3, received: [300] },
    ]);
    assert.deepEqual(
      intervalRates(last30, 1).map((p) => p.x),
      [1, 1.3],
    );
    assert.equal(intervalRates(makeIntervals([{ t: 0.01, received: [10] }]), 1).length, 1);
  });

  it('labels a run with its date, peers and parameters, and carries both totals', () => {
    const r = makeResult({
      streams: [
        { bytes: 1_000_000, seconds: 2, completions: 10 },
        { bytes: 1_000_000, seconds: 4, completions: 10 },
      ],
      intervals: makeIntervals([{ t: 1, received: [500_000, 250_000] }]),
      startedAt: '2026-01-02T03:04:05.000Z',
    });
    const o = overlayRun(r, (iso) => `D(${iso.slice(0, 10)})`);
    assert.equal(o.label, "D(2026-01-02) · sender-pc → receiver-pc (controller's file) · 2 streams, forward, window 20.00 MiB, limit 1.91 MiB, direct");
    assert.deepEqual(o.points, [{ x: 1, y: 6e6 }]);
    assert.equal(o.bytes, 2_000_000);
    assert.equal(o.seconds, 4);
    assert.equal(o.wallClockBitsPerSec, 4e6); // 2 MB × 8 / 4 s
    assert.equal(o.streamSumBitsPerSec, 6e6); // 4 Mbit/s + 2 Mbit/s
    assert.equal(o.partial, false);
  });

  it('names an OS-default window, a time limit, an emulated link and a partial run', () => {
    const r = recordRun();
    r.params.windowBytes = null;
    r.params.seconds = 30;
    r.params.bytes = null;
    r.link = {
      emulator: 'longhaul-proxy',
      preset: 'satellite',
      settings: null,
      chains: { up: [], down: [] },
      modelCeilingBitsPerSec: null,
      bypassToggles: [],
      note: '',
    };
    assert.equal(describeParams(r), '2 streams, forward, OS-default window, limit 30 s, emulated link: satellite');
    r.partial = true;
    assert.match(overlayRun(r).label, / · partial$/);
  });

  it('keeps at most two runs selected, and refuses a third rather than unticking one', () => {
    let s: string[] = [];
    s = toggleCompare(s, 'a')!;
    s = toggleCompare(s, 'b')!;
    assert.deepEqual(s, ['a', 'b']);
    assert.equal(toggleCompare(s, 'c'), null);
    s = toggleCompare(s, 'b')!;
    assert.deepEqual(s, ['a']);
    assert.deepEqual(toggleCompare(s, 'c'), ['a', 'c']);
  });
});

describe('overlay decimation', () => {
  // An hour at -i 0.1: 36,000 intervals (a result from before the recorder's detail rule, or a synthetic one).
  const hour: OverlayPoint[] = Array.from({ length: 36_000 }, (_, i) => ({ x: (i + 1) / 10, y: 1e9 + (i % 10) * 1e6 }));

  it('keeps a line of any length to at most MAX_OVERLAY_POINTS, in time order, ends included', () => {
    const out = decimate(hour);
    assert.ok(out.length <= MAX_OVERLAY_POINTS && out.length > MAX_OVERLAY_POINTS / 2, `${out.length} points`);
    assert.ok(out.every((p, i) => i === 0 || p.x > out[i - 1]!.x));
    assert.equal(out[0]!.x, 0.1);
    assert.ok(out.at(-1)!.x > 3599);
    assert.equal(decimate(hour.slice(0, 100)).length, 100, 'a short line is left alone');
  });

  it('keeps a one-interval stall, a burst and a gap that a mean would hide', () => {
    const line = hour.map((p) => ({ ...p }));
    line[12_345]!.y = 0;
    line[23_456]!.y = 9e9;
    line[30_000]!.y = null;
    const out = decimate(line);
    assert.ok(
      out.some((p) => p.y === 0 && p.x === line[12_345]!.x),
      'the stall',
    );
    assert.ok(
      out.some((p) => p.y === 9e9),
      'the burst',
    );
    assert.ok(
      out.some((p) => p.y === null && p.x === line[30_000]!.x),
      'the gap',
    );
  });

  it('a stored run of an hour at -i 0.1 is drawn from a bounded line', () => {
    const r = makeResult({ streams: [{ bytes: 1, seconds: 3600, completions: 1 }], intervalSeconds: 0.1 });
    r.intervals = makeIntervals(hour.map((p) => ({ t: p.x, received: [125_000] })));
    assert.ok(overlayRun(r).points.length <= MAX_OVERLAY_POINTS);
  });
});
