/**
 * The figures a limiter verdict is computed from (diagnosis.ts), read off a
 * result: the measured rate, the RTT and windows of the transfer's TCP_INFO
 * readings (medians over the readings while data moved), the queueing delay
 * (smoothed RTT against the minimum), the receiver's buffer, and the kernel's
 * busy / limited timers over each stream's own active time (transfer-timers.ts).
 * Optional fields are absent in inputs built by hand and older results: unknown.
 */
import type { CpuInfo, Side, StreamResult, TcpSample } from '../contract/result.js';
import { streamTimers } from './transfer-timers.js';
import { queueingUs } from '../contract/delay-info.js';

/** The figures the verdict is computed from, per direction. */
export interface LimiterInputs {
  measuredBitsPerSecond: number | null;
  rttSeconds: number | null;
  /** Lowest RTT the kernel saw (tcp_info min_rtt): the path without queues. Absent/null when unknown. */
  minRttSeconds?: number | null;
  /** Receive window the sender saw (sum over streams), bytes. */
  windowBytes: number | null;
  /** Window scale the receiver advertised (the sender's snd_wscale); null when unknown. */
  windowScale: number | null;
  cwndBytes: number | null;
  retransSegments: number | null;
  /** Seconds the sender was busy, and limited by the receive window / its send buffer. */
  busySeconds: number | null;
  rwndLimitedSeconds: number | null;
  sndbufLimitedSeconds: number | null;
  /** Length of the transfer, seconds (to tell a sender that idled from one that kept the socket full). */
  transferSeconds: number | null;
  /** The path's rate when known (e.g. an emulated link), bits per second. */
  linkBitsPerSecond: number | null;
  /** Why the TCP figures are missing, when they are. */
  missingReason?: string | null;
  /** Smoothed RTT under load less the minimum RTT, seconds: per stream over its transfer readings, median over streams. */
  queueingSeconds?: number | null;
  /** Time the congestion window held the sender back (Windows RFC 4898 Cwnd time), s. */
  cwndLimitedSeconds?: number | null;
  /** Time the sending application left the socket empty (Windows RFC 4898 Snd time), s. */
  senderLimitedSeconds?: number | null;
  /** Share of transfer readings whose delivery-rate sample was application-limited (Linux); null: not reported. */
  appLimitedShare?: number | null;
  /** Segments the senders handed over (bytes ÷ MSS): the denominator of the loss rate. */
  segmentsSent?: number | null;
  /** The retransmit count is bytes retransmitted ÷ MSS (the OS counts only bytes), not a count. */
  retransEstimated?: boolean;
  /** The sender's MSS, bytes (for the Mathis estimate). */
  mssBytes?: number | null;
  /** The senders' congestion control when all streams used the same one ('cubic', 'bbr'); null: unknown or mixed. */
  congestionControl?: string | null;
  /** The receivers' receive buffers (SO_RCVBUF as their OS reported it, summed over streams), bytes. */
  receiverBufferBytes?: number | null;
  /** The most the receivers advertise when clamped (Longhaul's --window on Linux), summed; null: not clamped. */
  receiverClampBytes?: number | null;
  /** Which side sent, and the CPU figures of the run (absent: not measured). */
  senderSide?: Side;
  cpu?: CpuInfo | null;
  /** The window the user asked for (--window), bytes; null or absent: the OS's own. */
  windowRequestedBytes?: number | null;
}

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const hi = s[mid];
  const lo = s[mid - 1];
  if (hi === undefined) return null;
  return s.length % 2 || lo === undefined ? hi : (lo + hi) / 2;
}

function values(series: TcpSample[], key: keyof TcpSample): number[] {
  return series.map((x) => x[key]).filter((v): v is number => typeof v === 'number');
}

/** A cumulative counter's last reading (retransmits: nothing is sent before the data starts). */
function last(series: TcpSample[], key: keyof TcpSample): number | null {
  return values(series, key).at(-1) ?? null;
}

function same<T>(xs: T[]): T | null {
  const [first] = xs;
  return first !== undefined && xs.every((x) => x === first) ? first : null;
}

function sumOrNull(xs: (number | null)[]): number | null {
  return xs.every((x) => x === null) ? null : xs.reduce<number>((a, x) => a + (x ?? 0), 0);
}

/** Readings with data in flight describe the transfer; the idle ones at the very start/end do not. */
function transferReadings(series: TcpSample[]): TcpSample[] {
  const busy = series.filter((x) => (x.unackedSegments ?? 1) > 0);
  return busy.length ? busy : series;
}

/**
 * The run's RTT, seconds: each sending stream's median smoothed RTT over the readings taken
 * with data in flight, then the median over streams. The one RTT a result is explained with
 * (the verdict, the summary, the what-if): the last reading alone is taken after the transfer
 * drained, when an idle socket's RTT says nothing about the transfer (on loopback 0.234 ms
 * against 27 µs while data flowed).
 */
export function transferRttSeconds(streams: StreamResult[]): number | null {
  const rtts = streams.map((s) => median(values(transferReadings(s.send?.tcp ?? []), 'rttUs'))).filter((v): v is number => v !== null);
  const m = median(rtts);
  return m === null ? null : m / 1e6;
}

/** Gather the inputs of one direction's streams from the result (sender-side TCP_INFO series, the receivers' sockets). */
export function limiterInputs(
  streams: StreamResult[],
  measuredBitsPerSecond: number | null,
  transferSeconds: number | null,
  linkBitsPerSecond: number | null = null,
): LimiterInputs {
  const per = streams.map((s) => {
    const series = s.send?.tcp ?? [];
    const use = transferReadings(series);
    const minRttUs = values(series, 'minRttUs').reduce<number | null>((a, v) => (a === null ? v : Math.min(a, v)), null);
    const rttUs = median(values(use, 'rttUs'));
    const flags = use.map((x) => x.appLimited).filter((v): v is boolean => typeof v === 'boolean');
    const mss = s.send?.socket?.sndMssBytes ?? null;
    return {
      minRttUs,
      queueUs: queueingUs(rttUs, minRttUs),
      wnd: median(values(use, 'sndWndBytes')),
      cwnd: median(values(use, 'sndCwndBytes')),
      retrans: last(series, 'totalRetransSegments'),
      estimated: series.some((x) => x.retransSource === 'estimated'),
      timers: streamTimers(s.send),
      appLimited: flags.length ? flags.filter(Boolean).length / flags.length : null,
      segments: mss && s.send ? s.send.bytes / mss : null,
      mss,
      cc: s.send?.socket?.congestionControl ?? null,
      rcvBuf: s.receive?.socket?.rcvBufBytes ?? null,
      clamp: s.receive?.socket?.windowClampBytes ?? null,
      scale: s.send?.socket?.sndWscale ?? null,
    };
  });
  const minRtts = per.map((p) => p.minRttUs).filter((v): v is number => v !== null && v > 0);
  const queues = per.map((p) => p.queueUs).filter((v): v is number => v !== null);
  const first = per[0];
  const us = (x: number | null): number | null => (x === null ? null : x / 1e6);
  const timer = (k: 'busyUs' | 'rwndLimitedUs' | 'sndbufLimitedUs' | 'cwndLimitedUs' | 'senderLimitedUs'): number | null =>
    us(sumOrNull(per.map((p) => p.timers[k])));
  const covered = sumOrNull(per.map((p) => p.timers.coveredSeconds));
  const appShares = per.map((p) => p.appLimited).filter((v): v is number => v !== null);
  const reasons = streams.flatMap((s) => s.send?.socket?.unavailable ?? []).filter((u) => u.field === 'tcp' || u.field === 'tcp.rttUs');
  const allKnown = <T>(xs: (T | null)[]): xs is T[] => xs.length > 0 && xs.every((x) => x !== null);
  const rcvBufs = per.map((p) => p.rcvBuf);
  const clamps = per.map((p) => p.clamp);
  const segments = per.map((p) => p.segments);
  return {
    measuredBitsPerSecond,
    rttSeconds: transferRttSeconds(streams),
    minRttSeconds: minRtts.length ? Math.min(...minRtts) / 1e6 : null,
    queueingSeconds: us(median(queues)),
    windowBytes: sumOrNull(per.map((p) => p.wnd)),
    windowScale: first && per.every((p) => p.scale === first.scale) ? first.scale : null,
    cwndBytes: sumOrNull(per.map((p) => p.cwnd)),
    retransSegments: sumOrNull(per.map((p) => p.retrans)),
    retransEstimated: per.some((p) => p.estimated),
    segmentsSent: allKnown(segments) ? segments.reduce((a, x) => a + x, 0) : null,
    mssBytes: same(per.map((p) => p.mss)),
    congestionControl: same(per.map((p) => p.cc)),
    busySeconds: timer('busyUs'),
    rwndLimitedSeconds: timer('rwndLimitedUs'),
    sndbufLimitedSeconds: timer('sndbufLimitedUs'),
    cwndLimitedSeconds: timer('cwndLimitedUs'),
    senderLimitedSeconds: timer('senderLimitedUs'),
    appLimitedShare: appShares.length ? appShares.reduce((a, x) => a + x, 0) / appShares.length : null,
    // Each stream over its own active time: one that finished its bytes early is not idle.
    transferSeconds: covered ?? (transferSeconds === null ? null : transferSeconds * Math.max(1, streams.length)),
    receiverBufferBytes: allKnown(rcvBufs) ? rcvBufs.reduce((a, x) => a + x, 0) : null,
    receiverClampBytes: allKnown(clamps) ? clamps.reduce((a, x) => a + x, 0) : null,
    linkBitsPerSecond,
    senderSide: streams[0]?.sender,
    missingReason: reasons[0]?.reason ?? (streams.some((s) => !s.send) ? 'the sender did not report' : null),
  };
}
