/**
 * How much detail a result keeps: the head is HEAD_CELLS stream-intervals' worth of ticks (never
 * fewer than 64 ticks, however many streams), and two neighbouring intervals merge into one whose
 * bytes, seconds and tick count are the sums (so the run's totals stay exact) and whose end is the
 * later one's. Two TCP readings merge into the later one (cumulative counters stay exact) carrying
 * the range of the RTT, cwnd and window over both and how many readings it stands for.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detailInfo, groupingFor, HEAD_CELLS, mergeIntervals, mergeTcp } from '../../electron/analysis/detail-rule.js';
import type { IntervalResult, TcpSample } from '../../electron/contract/result.js';
import { tcpSample } from '../helpers/result-fixtures.js';

function interval(index: number, t: number, seconds: number, sent: number, received: number | null): IntervalResult {
  return {
    index,
    t,
    seconds,
    controllerT: t,
    responderT: t,
    streams: [{ id: 1, sentBytes: sent, receivedBytes: received, receiveCompletions: received === null ? null : 1 }],
    sentBytes: sent,
    receivedBytes: received,
  };
}

describe('the detail rule', () => {
  it('keeps HEAD_CELLS stream-intervals at the start, at least 64 ticks', () => {
    assert.equal(groupingFor(1).headIndex, HEAD_CELLS);
    assert.equal(groupingFor(16).headIndex, HEAD_CELLS / 16);
    assert.equal(groupingFor(3, 100).headIndex, 64, '100 / 3 is under the floor');
    assert.equal(groupingFor(0).headIndex, HEAD_CELLS, 'no streams counts as one');
    assert.equal(groupingFor(5).ticks, 1, 'a run starts unthinned');
  });

  it('says thinned only when groups hold more than one tick, and only then where the recent window starts', () => {
    assert.deepEqual(
      [detailInfo({ headIndex: 64, ticks: 1, recent: 64 }, 500).thinned, detailInfo({ headIndex: 64, ticks: 1, recent: 64 }, 500).recentFromIndex],
      [false, null],
    );
    const thinned = detailInfo({ headIndex: 64, ticks: 8, recent: 64 }, 500);
    assert.deepEqual([thinned.thinned, thinned.fullThroughIndex, thinned.ticksPerInterval, thinned.recentFromIndex], [true, 64, 8, 500]);
  });

  it('two intervals become one: bytes, seconds and ticks add up, the end is the later one', () => {
    const m = mergeIntervals(interval(7, 1.75, 0.25, 1_000, 900), { ...interval(8, 2.0, 0.25, 3_000, 2_800), ticks: 2 });
    assert.deepEqual([m.index, m.t, m.seconds, m.ticks, m.sentBytes, m.receivedBytes], [8, 2.0, 0.5, 3, 4_000, 3_700]);
    assert.deepEqual(m.streams[0], { id: 1, sentBytes: 4_000, receivedBytes: 3_700, receiveCompletions: 2 });
  });

  it('a side missing in one part keeps the other part; missing in both stays unknown', () => {
    const m = mergeIntervals(interval(1, 1, 1, 500, null), interval(2, 2, 1, 500, 400));
    assert.equal(m.receivedBytes, 400);
    assert.equal(mergeIntervals(interval(1, 1, 1, 5, null), interval(2, 2, 1, 5, null)).receivedBytes, null);
  });

  it('two readings become the later one with the range of both', () => {
    const a: TcpSample = tcpSample(1, { rttUs: 900, sndCwndBytes: 40_000, sndWndBytes: 60_000, totalRetransSegments: 3 });
    const b: TcpSample = tcpSample(2, { rttUs: 1_500, sndCwndBytes: 20_000, sndWndBytes: 60_000, totalRetransSegments: 5 });
    const ab = mergeTcp(a, b);
    assert.equal(ab.t, 2);
    assert.equal(ab.totalRetransSegments, 5, 'a cumulative counter is the later reading, not a sum');
    assert.deepEqual(ab.spread, {
      readings: 2,
      rttUs: { min: 900, max: 1_500 },
      sndCwndBytes: { min: 20_000, max: 40_000 },
      sndWndBytes: { min: 60_000, max: 60_000 },
    });
    const c = tcpSample(3, { rttUs: 700, sndCwndBytes: null, sndWndBytes: 70_000 });
    const abc = mergeTcp(ab, c);
    assert.deepEqual(abc.spread, {
      readings: 3,
      rttUs: { min: 700, max: 1_500 },
      sndCwndBytes: { min: 20_000, max: 40_000 },
      sndWndBytes: { min: 60_000, max: 70_000 },
    });
  });
});
