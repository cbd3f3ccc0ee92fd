/**
 * Throughput over time from a result's intervals: what arrived per interval,
 * bit/s, against the interval's end (receiver clock). One rule for the HTML
 * report's chart and the Results screen's, so both draw the same line.
 */
import type { LonghaulResult } from './result.js';

/** [seconds since start, bit/s] of one line. */
export type RatePoint = [number, number];

/** Intervals shorter than this share of the sample interval are left out: a last interval of one read shows as a spike. */
const SHORT_INTERVAL_SHARE = 0.5;

function counted(r: LonghaulResult, seconds: number): boolean {
  return seconds > 0 && seconds >= r.params.intervalSeconds * SHORT_INTERVAL_SHARE;
}

/** Received bit/s per interval over all streams. */
export function receivedRatePoints(r: LonghaulResult): RatePoint[] {
  return r.intervals.flatMap((iv): RatePoint[] => (counted(r, iv.seconds) && iv.receivedBytes !== null ? [[iv.t, (iv.receivedBytes * 8) / iv.seconds]] : []));
}

/** Received bit/s per interval for each stream, by stream id. */
export function streamRatePoints(r: LonghaulResult): Map<number, RatePoint[]> {
  const out = new Map<number, RatePoint[]>();
  for (const iv of r.intervals) {
    if (!counted(r, iv.seconds)) continue;
    for (const s of iv.streams) {
      if (s.receivedBytes === null) continue;
      const line = out.get(s.id) ?? [];
      line.push([iv.t, (s.receivedBytes * 8) / iv.seconds]);
      out.set(s.id, line);
    }
  }
  return out;
}
