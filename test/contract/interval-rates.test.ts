/** Whose bytes the throughput charts draw: the receiver's, or the sender's where no receiver reported (an iperf3 partner). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lossPercentPoints, rateView, streamRatePoints, totalRatePoints } from '../../electron/contract/interval-rates.js';
import { throughputChart } from '../../electron/report/html-charts.js';
import { makeIntervals, makeResult } from '../helpers/result-fixtures.js';
import { resultLines } from '../../renderer/src/lib/result-lines.js';

function run(receiverReported: boolean) {
  const intervals = makeIntervals([
    { t: 1, received: [1_000_000, 500_000], sent: [1_250_000, 750_000] },
    { t: 2, received: [1_000_000, 500_000], sent: [1_250_000, 750_000] },
  ]);
  if (!receiverReported) {
    for (const iv of intervals) {
      iv.receivedBytes = null;
      for (const s of iv.streams) s.receivedBytes = null;
    }
  }
  return makeResult({
    streams: [
      { bytes: 2_000_000, seconds: 2, completions: 32 },
      { bytes: 1_000_000, seconds: 2, completions: 16 },
    ],
    intervals,
  });
}

describe('throughput over time: whose bytes', () => {
  it("the receiver's, whenever it reported an interval", () => {
    const r = run(true);
    assert.equal(rateView(r), 'received');
    assert.deepEqual(totalRatePoints(r), [
      [1, 12_000_000],
      [2, 12_000_000],
    ]);
    assert.deepEqual(streamRatePoints(r).get(1), [
      [1, 4_000_000],
      [2, 4_000_000],
    ]);
    assert.match(throughputChart(r), /received, all streams/);
  });

  it("the sender's where no receiver reported (iperf3 -s sends no samples), and the charts say so", () => {
    const r = run(false);
    assert.equal(rateView(r), 'sent');
    assert.deepEqual(totalRatePoints(r), [
      [1, 16_000_000],
      [2, 16_000_000],
    ]);
    assert.deepEqual(streamRatePoints(r).get(0), [
      [1, 10_000_000],
      [2, 10_000_000],
    ]);
    assert.match(throughputChart(r), /sent by this PC, all streams: the other end reported no intervals/);
  });
});

describe('UDP: the datagrams lost per interval beside the rate', () => {
  it('lost ÷ (arrived + lost) over all streams, an interval with no receiver count left out; the Results chart draws it on the right-hand axis in %', () => {
    const r = run(true);
    r.params.protocol = 'udp';
    const [a, b] = r.intervals;
    assert.ok(a && b);
    const udp = (datagrams: number, lost: number) => ({ datagrams, lost, outOfOrder: 0, duplicates: 0, jitterMs: 0.1 });
    // Interval 1: 10 of 100 + 0 of 50 lost (150 numbered): 6.67 %. Interval 2: no receiver counts: unknown, not 0.
    a.streams.forEach((s, i) => (s.udp = i === 0 ? udp(90, 10) : udp(50, 0)));
    assert.deepEqual(
      lossPercentPoints(r).map(([t, p]) => [t, Number(p.toFixed(2))]),
      [[1, 6.67]],
    );
    const set = resultLines(r);
    assert.deepEqual(
      set.lines.map((l) => [l.label, l.axis]),
      [
        ['all streams', 'y'],
        ['datagrams lost (%)', 'parts'],
      ],
    );
    assert.equal(set.partsUnit, 'percent');
    assert.equal(set.partsTitle, 'datagrams lost per interval (%)');
    const tcp = run(true);
    assert.deepEqual(lossPercentPoints(tcp), [], 'TCP has no datagrams');
    assert.equal(resultLines(tcp).partsUnit, undefined);
  });
});
