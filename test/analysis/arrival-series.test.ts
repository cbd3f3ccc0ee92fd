/**
 * The receiver's byte series for the capacity estimate (electron/analysis/arrival-series.ts): segments
 * counted on arrival where every stream's reading gives them, the in-order bytes from the first sample
 * that does not; a repeated (stale) reading skips a sample without ending the series.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ArrivalSeries, type ReceiverSample } from '../../electron/analysis/arrival-series.js';
import type { TcpSample } from '../../electron/contract/tcp-reading.js';

/** A receiver's TCP reading at tick `index` with only the fields the series reads set. */
function reading(index: number, dataSegsIn: number | null, rcvMssBytes: number | null = 1448): TcpSample {
  return { index, t: index / 10, dataSegsIn, rcvMssBytes } as TcpSample;
}

function sample(index: number, streams: [number, number][], tcp: [number, TcpSample][] | undefined): ReceiverSample {
  return { index, streams: streams.map(([id, b]) => [id, b, 0]), ...(tcp ? { tcp } : {}) };
}

describe('arrival series', () => {
  it('counts segments as they arrive, summed over the streams, while the in-order bytes wait for a hole', () => {
    const a = new ArrivalSeries(true);
    // Stream 1 lost a segment at tick 2: 10 segments arrived, the application read none of them until tick 3.
    assert.deepEqual(
      a.add(
        sample(
          1,
          [
            [1, 14_480],
            [2, 14_480],
          ],
          [
            [1, reading(1, 10)],
            [2, reading(1, 10)],
          ],
        ),
      ),
      { inOrder: 28_960, segments: 28_960 },
    );
    assert.deepEqual(
      a.add(
        sample(
          2,
          [
            [1, 14_480],
            [2, 28_960],
          ],
          [
            [1, reading(2, 20)],
            [2, reading(2, 20)],
          ],
        ),
      ),
      { inOrder: 43_440, segments: 57_920 },
    );
    assert.deepEqual(
      a.add(
        sample(
          3,
          [
            [1, 43_440],
            [2, 43_440],
          ],
          [
            [1, reading(3, 31)],
            [2, reading(3, 30)],
          ],
        ),
      ),
      { inOrder: 86_880, segments: 88_328 },
    );
    assert.equal(a.segmentsHold, true);
  });

  it('new segments are counted at the largest MSS seen so far: it rises in the first round trips, a short segment does not lower it', () => {
    const a = new ArrivalSeries(true);
    a.add(sample(1, [[1, 5360]], [[1, reading(1, 10, 536)]]));
    assert.equal(a.add(sample(2, [[1, 19_840]], [[1, reading(2, 20, 1448)]])).segments, 5360 + 14_480);
    assert.equal(a.add(sample(3, [[1, 34_320]], [[1, reading(3, 30, 600)]])).segments, 5360 + 2 * 14_480);
  });

  it('an OS that does not count segments (Windows, macOS) leaves the in-order bytes for the whole run', () => {
    const a = new ArrivalSeries(true);
    assert.deepEqual(a.add(sample(1, [[1, 1000]], [[1, reading(1, null)]])), { inOrder: 1000, segments: null });
    assert.equal(a.segmentsHold, false);
    // Even when a later reading has them: one series per run.
    assert.equal(a.add(sample(2, [[1, 2000]], [[1, reading(2, 5)]])).segments, null);
  });

  it('a stream without a reading, or no readings at all, ends the segments series', () => {
    const a = new ArrivalSeries(true);
    a.add(
      sample(
        1,
        [
          [1, 1000],
          [2, 1000],
        ],
        [[1, reading(1, 1)]],
      ),
    );
    assert.equal(a.segmentsHold, false);
    const b = new ArrivalSeries(true);
    b.add(sample(1, [[1, 1000]], undefined));
    assert.equal(b.segmentsHold, false);
  });

  it('a reading repeated from an earlier tick skips the sample and keeps the series', () => {
    const a = new ArrivalSeries(true);
    a.add(sample(1, [[1, 14_480]], [[1, reading(1, 10)]]));
    assert.equal(a.add(sample(2, [[1, 28_960]], [[1, reading(1, 10)]])).segments, null);
    assert.equal(a.segmentsHold, true);
    assert.equal(a.add(sample(3, [[1, 43_440]], [[1, reading(3, 30)]])).segments, 43_440);
  });

  it('full segments: the in-order bytes reach segments × MSS whenever no hole is open; short ones never do', () => {
    const full = new ArrivalSeries(true);
    // 100 segments of 1448 B; a hole holds 30 of them at tick 2, filled at tick 3.
    full.add(sample(1, [[1, 50 * 1448]], [[1, reading(1, 50)]]));
    full.add(sample(2, [[1, 70 * 1448]], [[1, reading(2, 100)]]));
    assert.equal(full.segmentsFull(), false, '70 % read (a hole open) is not yet the proof');
    full.add(sample(3, [[1, 149 * 1448]], [[1, reading(3, 150)]]));
    assert.equal(full.segmentsFull(), true, 'the hole filled: 149 of 150 segments were new payload');
    // A sender that writes 600 B at a time (an application-limited one): segments of about 40 % of the MSS.
    const short = new ArrivalSeries(true);
    for (let i = 1; i <= 20; i++) short.add(sample(i, [[1, i * 100 * 600]], [[1, reading(i, i * 100, 1448)]]));
    assert.equal(short.segmentsFull(), false);
    assert.equal(short.segmentsHold, true, 'the caller ends the series (endSegments)');
    short.endSegments();
    assert.equal(short.add(sample(21, [[1, 21 * 100 * 600]], [[1, reading(21, 2100, 1448)]])).segments, null);
  });

  it("a receiver behind Longhaul's link emulator, or on loopback (an MSS no network frame carries), reads the in-order bytes", () => {
    const behind = new ArrivalSeries(false);
    assert.deepEqual(behind.add(sample(1, [[1, 14_480]], [[1, reading(1, 10)]])), { inOrder: 14_480, segments: null });
    assert.equal(behind.segmentsHold, false);
    const loopback = new ArrivalSeries(true);
    assert.equal(loopback.add(sample(1, [[1, 654_830]], [[1, reading(1, 10, 65_483)]])).segments, null);
    assert.equal(loopback.segmentsHold, false);
    // Jumbo frames (9,000 B MTU: MSS 8,960) are a network's: counted.
    assert.equal(new ArrivalSeries(true).add(sample(1, [[1, 89_600]], [[1, reading(1, 10, 8960)]])).segments, 89_600);
  });
});
