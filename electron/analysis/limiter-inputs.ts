/**
 * The figures a limiter verdict is computed from (diagnosis.ts), read off a
 * result: the measured rate, the RTT and windows of the transfer's TCP_INFO
 * readings (medians over the readings while data moved), and the kernel's
 * busy / limited timers.
 */
import type { StreamResult, TcpSample } from '../contract/result.js';

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

/** A cumulative counter's last reading: the kernel counts from the handshake, and streams idle until the start. */
function last(series: TcpSample[], key: keyof TcpSample): number | null {
  return values(series, key).at(-1) ?? null;
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

/** Gather the inputs of one direction's streams from the result (sender-side TCP_INFO series). */
export function limiterInputs(
  streams: StreamResult[],
  measuredBitsPerSecond: number | null,
  transferSeconds: number | null,
  linkBitsPerSecond: number | null = null,
): LimiterInputs {
  const per = streams.map((s) => {
    const series = s.send?.tcp ?? [];
    const use = transferReadings(series);
    return {
      minRttUs: values(series, 'minRttUs').reduce<number | null>((a, v) => (a === null ? v : Math.min(a, v)), null),
      wnd: median(values(use, 'sndWndBytes')),
      cwnd: median(values(use, 'sndCwndBytes')),
      retrans: last(series, 'totalRetransSegments'),
      busyUs: last(series, 'busyUs'),
      rwndUs: last(series, 'rwndLimitedUs'),
      sndbufUs: last(series, 'sndbufLimitedUs'),
      scale: s.send?.socket?.sndWscale ?? null,
    };
  });
  const minRtts = per.map((p) => p.minRttUs).filter((v): v is number => v !== null && v > 0);
  const first = per[0];
  const us = (x: number | null): number | null => (x === null ? null : x / 1e6);
  const reasons = streams.flatMap((s) => s.send?.socket?.unavailable ?? []).filter((u) => u.field === 'tcp' || u.field === 'tcp.rttUs');
  return {
    measuredBitsPerSecond,
    rttSeconds: transferRttSeconds(streams),
    minRttSeconds: minRtts.length ? Math.min(...minRtts) / 1e6 : null,
    windowBytes: sumOrNull(per.map((p) => p.wnd)),
    windowScale: first && per.every((p) => p.scale === first.scale) ? first.scale : null,
    cwndBytes: sumOrNull(per.map((p) => p.cwnd)),
    retransSegments: sumOrNull(per.map((p) => p.retrans)),
    busySeconds: us(sumOrNull(per.map((p) => p.busyUs))),
    rwndLimitedSeconds: us(sumOrNull(per.map((p) => p.rwndUs))),
    sndbufLimitedSeconds: us(sumOrNull(per.map((p) => p.sndbufUs))),
    transferSeconds: transferSeconds === null ? null : transferSeconds * Math.max(1, streams.length),
    linkBitsPerSecond,
    missingReason: reasons[0]?.reason ?? (streams.some((s) => !s.send) ? 'the sender did not report' : null),
  };
}
