/**
 * Throughput over time from a result's intervals: what arrived per interval,
 * bit/s, against the interval's end (receiver clock); what was sent where no
 * receiver reported (rateView). One rule for the HTML
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

/**
 * Whose bytes the throughput charts draw: the receiver's, as every total of Longhaul does, or the
 * sender's where no receiver reported one interval (an iperf3 partner sends its totals at the end
 * but no samples: the intervals hold this PC's sent side only). Both charts say which.
 */
type RateView = 'received' | 'sent';

export function rateView(r: LonghaulResult): RateView {
  const received = r.intervals.some((iv) => iv.receivedBytes !== null);
  const sent = r.intervals.some((iv) => iv.sentBytes !== null);
  return !received && sent ? 'sent' : 'received';
}

/** Bit/s per interval over all streams, in `rateView(r)`'s view. */
export function totalRatePoints(r: LonghaulResult): RatePoint[] {
  const view = rateView(r);
  return r.intervals.flatMap((iv): RatePoint[] => {
    const bytes = view === 'sent' ? iv.sentBytes : iv.receivedBytes;
    return counted(r, iv.seconds) && bytes !== null ? [[iv.t, (bytes * 8) / iv.seconds]] : [];
  });
}

/** Bit/s per interval for each stream, by stream id, in `rateView(r)`'s view. */
export function streamRatePoints(r: LonghaulResult): Map<number, RatePoint[]> {
  const view = rateView(r);
  const out = new Map<number, RatePoint[]>();
  for (const iv of r.intervals) {
    if (!counted(r, iv.seconds)) continue;
    for (const s of iv.streams) {
      const bytes = view === 'sent' ? s.sentBytes : s.receivedBytes;
      if (bytes === null) continue;
      const line = out.get(s.id) ?? [];
      line.push([iv.t, (bytes * 8) / iv.seconds]);
      out.set(s.id, line);
    }
  }
  return out;
}

/**
 * UDP: the datagrams lost per interval over all streams, percent of those numbered in it (lost ÷
 * (arrived + lost), the receivers' counts); intervals where no stream's receiver reported are left
 * out (unknown, not 0). Empty for TCP.
 */
export function lossPercentPoints(r: LonghaulResult): RatePoint[] {
  if (r.params.protocol !== 'udp') return [];
  return r.intervals.flatMap((iv): RatePoint[] => {
    if (!counted(r, iv.seconds)) return [];
    const counts = iv.streams.flatMap((s) => (s.udp ? [s.udp] : []));
    const lost = counts.reduce((a, u) => a + u.lost, 0);
    const numbered = lost + counts.reduce((a, u) => a + u.datagrams, 0);
    return numbered > 0 ? [[iv.t, (lost / numbered) * 100]] : [];
  });
}
