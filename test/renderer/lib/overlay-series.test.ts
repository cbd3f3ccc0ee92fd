/** History overlay data: per-interval aggregate rates, gaps for missing samples, labels, totals, the two-run selection. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeParams, intervalRates, overlayRun, toggleCompare } from '../../../renderer/src/lib/overlay-series.js';
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
    const intervals = makeIntervals([{ t: 1, received: [1000] }, { t: 2, received: [1000] }]);
    intervals[0]!.receivedBytes = null;
    assert.deepEqual(intervalRates(intervals, 1), [{ x: 1, y: null }, { x: 2, y: 8000 }]);
  });

  it('drops only a final sliver interval (noise), never a normal short one or the only one', () => {
    const intervals = makeIntervals([{ t: 1, received: [1000] }, { t: 2, received: [1000] }, { t: 2.01, received: [900] }]);
    assert.deepEqual(intervalRates(intervals, 1).map((p) => p.x), [1, 2]);
    const last30 = makeIntervals([{ t: 1, received: [1000] }, { t: 1.3, received: [300] }]);
    assert.deepEqual(intervalRates(last30, 1).map((p) => p.x), [1, 1.3]);
    assert.equal(intervalRates(makeIntervals([{ t: 0.01, received: [10] }]), 1).length, 1);
  });

  it('labels a run with its date, peers and parameters, and carries both totals', () => {
    const r = makeResult({
      streams: [{ bytes: 1_000_000, seconds: 2, completions: 10 }, { bytes: 1_000_000, seconds: 4, completions: 10 }],
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
    r.link = { emulator: 'longhaul-proxy', preset: 'satellite', settings: null, chains: { up: [], down: [] }, modelCeilingBitsPerSec: null, bypassToggles: [], note: '' };
    assert.equal(describeParams(r), '2 streams, forward, OS-default window, limit 30 s, emulated link: satellite');
    r.partial = true;
    assert.match(overlayRun(r).label, / · partial$/);
  });

  it('keeps at most two runs selected, the newest choices winning', () => {
    let s: string[] = [];
    s = toggleCompare(s, 'a');
    s = toggleCompare(s, 'b');
    assert.deepEqual(s, ['a', 'b']);
    s = toggleCompare(s, 'c');
    assert.deepEqual(s, ['b', 'c']);
    s = toggleCompare(s, 'b');
    assert.deepEqual(s, ['c']);
  });
});
