/**
 * The figures the seed's question is about, read from one longhaul result:
 * the rate, the window the sender saw (tcp_info snd_wnd), the window scale,
 * the RTT the kernel measured, and rates over a span of receiver intervals.
 * Pure functions over `longhaul.result/1`; null where the result has no figure.
 */
import type { LonghaulResult, TcpSample } from '../../electron/contract/result.js';

/** What one forward run says about its window, first stream's sender. */
interface SeedFigures {
  /** Receiver's whole-run rate (first byte to last byte), bit/s. */
  measuredBitsPerSec: number | null;
  /** The receive window the sender saw while data was in flight, bytes. */
  sndWndBytes: { min: number | null; max: number | null };
  /** The window scale the receiver announced (the sender's snd_wscale). */
  sndWscale: number | null;
  /** Median smoothed RTT while data was in flight, and the lowest RTT the kernel saw, ms. */
  rttMs: number | null;
  minRttMs: number | null;
  /** Segments the sender retransmitted (the handshake's included). */
  retransSegments: number | null;
}

function nums(series: TcpSample[], pick: (s: TcpSample) => number | null | undefined): number[] {
  return series.map(pick).filter((v): v is number => typeof v === 'number');
}

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The figures of the first stream's sender (forward runs: the controller). */
export function seedFigures(r: LonghaulResult): SeedFigures {
  const send = r.streams[0]?.send ?? null;
  const series = send?.tcp ?? [];
  // Readings with data in flight describe the transfer; the idle ones before and after do not.
  const busy = series.filter((s) => (s.unackedSegments ?? 1) > 0);
  const wnd = nums(busy, (s) => s.sndWndBytes);
  const rtt = median(nums(busy, (s) => s.rttUs));
  const minRtt = nums(series, (s) => s.minRttUs);
  const retrans = nums(series, (s) => s.totalRetransSegments);
  return {
    measuredBitsPerSec: r.total.bitsPerSecond,
    sndWndBytes: { min: wnd.length ? Math.min(...wnd) : null, max: wnd.length ? Math.max(...wnd) : null },
    sndWscale: send?.socket?.sndWscale ?? null,
    rttMs: rtt === null ? null : rtt / 1000,
    minRttMs: minRtt.length ? Math.min(...minRtt) / 1000 : null,
    retransSegments: retrans.length ? retrans[retrans.length - 1]! : null,
  };
}

/**
 * Received bit/s over the intervals that end in (fromT, toT], seconds on the
 * receiver's clock; null when no interval falls there or one lacks the receiver's view.
 */
export function steadyBitsPerSec(r: LonghaulResult, fromT: number, toT: number): number | null {
  const span = r.intervals.filter((i) => i.t > fromT && i.t <= toT + 1e-3);
  if (!span.length || span.some((i) => i.receivedBytes === null)) return null;
  const bytes = span.reduce((a, i) => a + i.receivedBytes!, 0);
  const seconds = span.reduce((a, i) => a + i.seconds, 0);
  return seconds > 0 ? (bytes * 8) / seconds : null;
}

/** Received bit/s of every interval, in order (null where the receiver's view is missing). */
export function intervalBitsPerSec(r: LonghaulResult): (number | null)[] {
  return r.intervals.map((i) => (i.receivedBytes === null || i.seconds <= 0 ? null : (i.receivedBytes * 8) / i.seconds));
}
