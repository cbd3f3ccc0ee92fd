import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeIntervals } from '../../electron/analysis/detail-rule.js';
import { intervalTableRows } from '../../electron/contract/interval-table.js';
import type { IntervalResult, LonghaulResult } from '../../electron/contract/result.js';
import { IntervalBuilder, type CumulativeSample, type IntervalTcp } from '../../electron/engine/data-plane/interval-builder.js';
import { consoleLogInterval } from '../../electron/report/console-log.js';
import { csvContextOf, intervalRows } from '../../electron/report/csv-report.js';

const plan = [{ id: 0, sender: 'controller' as const }];

function reading(retrans: number | null, cwnd: number | null, source?: 'counted' | 'estimated'): IntervalTcp {
  return { totalRetransSegments: retrans, sndCwndBytes: cwnd, ...(source ? { retransSource: source } : {}) };
}

function tick(index: number, bytes: number, tcp?: IntervalTcp): [CumulativeSample, CumulativeSample] {
  const c: CumulativeSample = { index, t: index, final: false, streams: [[0, bytes, index]], ...(tcp ? { tcp: [[0, tcp]] } : {}) };
  const r: CumulativeSample = { index, t: index, final: false, streams: [[0, bytes, index]] };
  return [c, r];
}

describe('per-interval retransmits and cwnd', { timeout: 10_000 }, () => {
  it('takes the retransmits as the difference over the interval and the cwnd at its end, from the sender', () => {
    const b = new IntervalBuilder(plan, 'responder');
    const ivs = [
      b.next(1, ...tick(1, 1000, reading(2, 14480))),
      b.next(2, ...tick(2, 2000, reading(5, 28960))),
      b.next(3, ...tick(3, 3000, reading(5, 30000))),
    ];
    assert.deepEqual(
      ivs.map((iv) => [iv.streams[0]?.retransSegments, iv.streams[0]?.cwndBytes]),
      [
        [2, 14480],
        [3, 28960],
        [0, 30000],
      ],
    );
  });

  it('says unknown, never 0, when a reading is missing here or at the tick before, or the OS does not count', () => {
    const b = new IntervalBuilder(plan, 'responder');
    const ivs = [
      b.next(1, ...tick(1, 1000, reading(1, 1000))),
      b.next(2, ...tick(2, 2000, reading(null, null))),
      b.next(3, ...tick(3, 3000, reading(9, 3000))),
      b.next(4, ...tick(4, 4000, reading(9, 3000))),
    ];
    assert.deepEqual(
      ivs.map((iv) => iv.streams[0]?.retransSegments),
      [1, null, null, 0],
    );
    assert.equal(ivs[1]?.streams[0]?.cwndBytes, null);
    // A sender that sent no readings at all: no fields (an older peer, no addon), shown as unknown.
    const none = new IntervalBuilder(plan, 'responder').next(1, ...tick(1, 1000));
    assert.equal(none.streams[0]?.retransSegments, undefined);
    assert.match(consoleLogInterval(none), /unknown +unknown\n$/);
  });

  it('keeps Windows estimates marked as estimates, in the console log (≈) and the CSV', () => {
    const b = new IntervalBuilder(plan, 'responder');
    const iv = b.next(1, ...tick(1, 1000, reading(4, 65536, 'estimated')));
    assert.equal(iv.streams[0]?.retransSource, 'estimated');
    assert.match(consoleLogInterval(iv), /≈4 +65536\n$/);
    const r = fakeResult([iv]);
    const row = intervalRows(csvContextOf(r), iv)[0];
    assert.equal(row?.retransmits_segments, '4');
    assert.equal(row?.retransmits_estimated, 'true');
    assert.equal(row?.cwnd_at_end_bytes, '65536');
  });

  it('leaves unknown CSV cells empty, not 0', () => {
    const b = new IntervalBuilder(plan, 'responder');
    const iv = b.next(1, ...tick(1, 1000, reading(null, null)));
    const row = intervalRows(csvContextOf(fakeResult([iv])), iv)[0];
    assert.equal(row?.retransmits_segments, '');
    assert.equal(row?.retransmits_estimated, '');
    assert.equal(row?.cwnd_at_end_bytes, '');
  });

  it('adds the retransmits and keeps the later cwnd when a long run merges intervals', () => {
    const b = new IntervalBuilder(plan, 'responder');
    const a = b.next(1, ...tick(1, 1000, reading(2, 1000)));
    const c = b.next(2, ...tick(2, 2000, reading(7, 2000)));
    const m = mergeIntervals(a, c);
    assert.equal(m.streams[0]?.retransSegments, 7);
    assert.equal(m.streams[0]?.cwndBytes, 2000);
    const unknown = b.next(3, ...tick(3, 3000, reading(null, 3000)));
    assert.equal(mergeIntervals(c, unknown).streams[0]?.retransSegments, null);
  });

  it('gives the Results table iperf3 columns per stream per interval', () => {
    const b = new IntervalBuilder(plan, 'responder');
    const rows = intervalTableRows(fakeResult([b.next(1, ...tick(1, 125000, reading(3, 1448000)))]));
    assert.deepEqual(
      rows.map((r) => [r.streamId, r.interval, r.transfer, r.bitrate, r.retr, r.cwnd]),
      [[0, '0.00–1.00 s', '125.0 kB', '1.00 Mbit/s', '3', '1.45 MB']],
    );
  });
});

function fakeResult(intervals: IntervalResult[]): LonghaulResult {
  return {
    startedAt: '2026-01-01T00:00:00.000Z',
    params: { streams: 1, bufferBytes: 131072, windowBytes: null, bytes: null, seconds: 1, direction: 'forward', intervalSeconds: 1 },
    streams: [{ id: 0, sender: 'controller' }],
    intervals,
  } as unknown as LonghaulResult;
}
