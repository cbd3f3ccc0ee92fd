/**
 * The kernel's cumulative limit timers over the transfer only. Linux's busy / rwnd-limited /
 * sndbuf-limited times and Windows' RFC 4898 Rwin / Cwnd / Snd times run from the handshake; a
 * stream that sat idle before the start (or finished its bytes early, with `-n` split equally)
 * would have that idle time diluting every share. So each timer is a difference between two
 * readings bracketing the stream's own active time, and each share is over the time those
 * readings cover inside it.
 */
import type { EndView, TcpSample } from '../contract/result.js';

/** One stream's timers over its active time; null: not reported. */
interface StreamTimers {
  busyUs: number | null;
  rwndLimitedUs: number | null;
  sndbufLimitedUs: number | null;
  cwndLimitedUs: number | null;
  senderLimitedUs: number | null;
  /** Seconds of the stream's active time the two readings cover (the denominator of a busy share). */
  coveredSeconds: number | null;
}

type TimerKey = 'busyUs' | 'rwndLimitedUs' | 'sndbufLimitedUs' | 'cwndLimitedUs' | 'senderLimitedUs';
const KEYS: TimerKey[] = ['busyUs', 'rwndLimitedUs', 'sndbufLimitedUs', 'cwndLimitedUs', 'senderLimitedUs'];

const NONE: StreamTimers = { busyUs: null, rwndLimitedUs: null, sndbufLimitedUs: null, cwndLimitedUs: null, senderLimitedUs: null, coveredSeconds: null };

/**
 * The stream's active time on the sender's clock: from its first byte handed to the kernel to
 * its last, stretched over readings that still had data in flight (the tail drains after the last write).
 */
function activeSpan(view: EndView, series: TcpSample[]): { from: number; to: number } | null {
  const first = view.firstT ?? series[0]?.t ?? null;
  if (first === null) return null;
  let to = view.lastT ?? series.at(-1)?.t ?? first;
  for (const x of series) if ((x.unackedSegments ?? 0) > 0 && x.t > to) to = x.t;
  return { from: first, to };
}

/** The stream's timers over its active time, from its sender-side TCP_INFO series. */
export function streamTimers(view: EndView | null): StreamTimers {
  const series = [...(view?.tcp ?? [])].sort((a, b) => a.t - b.t);
  if (!view || !series.length) return NONE;
  const span = activeSpan(view, series);
  if (!span) return NONE;
  // Baseline: the last reading at or before the data started (its counters hold only the idle
  // time before), else the first reading inside the transfer. End: the first reading at or after
  // the stream went quiet, else the last one.
  const base = series.filter((x) => x.t <= span.from).at(-1) ?? series[0];
  const end = series.find((x) => x.t >= span.to) ?? series.at(-1);
  if (!base || !end) return NONE;
  const from = Math.max(base.t, span.from);
  const to = Math.min(end.t, span.to);
  // A single reading inside the transfer: its cumulative values, over the time since the data
  // started (on Linux the timers do not run while idle, so the idle time before adds nothing).
  const single = base === end;
  const covered = single ? to - span.from : to - from;
  const out: StreamTimers = { ...NONE, coveredSeconds: covered > 0 ? covered : null };
  for (const k of KEYS) {
    const a = base[k];
    const b = end[k];
    if (typeof b !== 'number') continue;
    out[k] = single ? b : typeof a === 'number' ? Math.max(0, b - a) : null;
  }
  return out;
}
