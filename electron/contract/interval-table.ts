/**
 * The Results screen's intervals table, as iperf3 prints its interval lines: `[ ID] Interval Transfer
 * Bitrate Retr Cwnd`, one row per stream per interval, the receiver's bytes and rate beside the
 * sender's retransmits in the interval and cwnd at its end. Built here, not in the component, so a
 * unit test reads the same cells the screen shows.
 */
import { intervalCwndText, intervalRetransText } from './interval-tcp-text.js';
import type { LonghaulResult } from './result.js';
import { formatBytes, formatRate } from './units.js';

/** One row of the table, every cell already in words. */
interface IntervalTableRow {
  key: string;
  streamId: number;
  /** `0.00–1.00 s`, the receiver's clock. */
  interval: string;
  transfer: string;
  bitrate: string;
  retr: string;
  cwnd: string;
  /** The interval falls in the `--omit` seconds: shown, left out of the totals and the verdict. */
  omitted: boolean;
}

/** Rows for every stream of every interval, in order. */
export function intervalTableRows(r: LonghaulResult): IntervalTableRow[] {
  return r.intervals.flatMap((iv) =>
    iv.streams.map((s) => ({
      key: `${iv.index}:${s.id}`,
      streamId: s.id,
      interval: `${(iv.t - iv.seconds).toFixed(2)}–${iv.t.toFixed(2)} s`,
      transfer: formatBytes(s.receivedBytes),
      bitrate: s.receivedBytes === null || !(iv.seconds > 0) ? 'unknown' : formatRate((s.receivedBytes * 8) / iv.seconds),
      retr: intervalRetransText(s),
      cwnd: intervalCwndText(s),
      omitted: Boolean(iv.omitted),
    })),
  );
}
