/**
 * The Results screen's intervals table, as iperf3 prints its interval lines: `[ ID] Interval Transfer
 * Bitrate Retr Cwnd`, one row per stream per interval, the receiver's bytes and rate beside the
 * sender's retransmits in the interval and cwnd at its end. Built here, not in the component, so a
 * unit test reads the same cells the screen shows.
 */
import { intervalCwndText, intervalRetransText } from './interval-tcp-text.js';
import type { LonghaulResult } from './result.js';
import { formatBytes, formatClock, formatJitter, formatLostTotal, formatRate } from './units.js';
import type { IntervalStream } from './result.js';

/** One row of the table, every cell already in words. */
interface IntervalTableRow {
  key: string;
  streamId: number;
  /** `0.00–1.00 s`, the receiver's clock. */
  interval: string;
  transfer: string;
  bitrate: string;
  /** TCP: the sender's retransmits in the interval; UDP: the receiver's jitter at its end (iperf3's UDP column). */
  retr: string;
  /** TCP: the sender's cwnd at the interval's end; UDP: datagrams lost of those expected in it (iperf3's Lost/Total). */
  cwnd: string;
  /** The interval falls in the `--omit` seconds: shown, left out of the totals and the verdict. */
  omitted: boolean;
}

/** Rows for every stream of every interval, in order. */
export function intervalTableRows(r: LonghaulResult): IntervalTableRow[] {
  const udp = r.params.protocol === 'udp';
  return r.intervals.flatMap((iv) =>
    iv.streams.map((s) => ({
      key: `${iv.index}:${s.id}`,
      streamId: s.id,
      interval: `${formatClock(iv.t - iv.seconds)}–${formatClock(iv.t)} s`,
      transfer: formatBytes(s.receivedBytes),
      bitrate: s.receivedBytes === null || !(iv.seconds > 0) ? 'unknown' : formatRate((s.receivedBytes * 8) / iv.seconds),
      ...(udp ? udpCells(s) : { retr: intervalRetransText(s), cwnd: intervalCwndText(s) }),
      omitted: Boolean(iv.omitted),
    })),
  );
}

/** A UDP interval's jitter and lost/total, as iperf3's UDP interval line; unknown where the receiver did not report it. */
function udpCells(s: IntervalStream): { retr: string; cwnd: string } {
  const u = s.udp;
  return {
    retr: u?.jitterMs == null ? 'unknown' : formatJitter(u.jitterMs / 1000),
    cwnd: u ? formatLostTotal(u.lost, u.lost + u.datagrams) : 'unknown',
  };
}
