/**
 * Data for the History overlay: two stored runs' aggregate received
 * throughput over time since start, on one chart, with a label that says
 * which run each line is (date, peers, parameters) and both totals.
 *
 * Pure: takes `longhaul.result/1` documents, returns plain objects, so it is
 * tested without a browser. An interval whose receiver sample is missing is a
 * gap in the line (y = null), never a zero: the run did not say.
 */
import type { IntervalResult, LonghaulResult } from '../../../electron/contract/result.js';
import { formatBinaryBytes, formatSeconds } from '../../../electron/contract/units.js';

/** One point of an overlay line: seconds since start (end of the interval), bit/s over the interval or null (unknown). */
export interface OverlayPoint {
  x: number;
  y: number | null;
}

export interface OverlayRun {
  id: string;
  /** Legend text: date, controller → responder, parameters. */
  label: string;
  points: OverlayPoint[];
  /** Bytes received over all streams. */
  bytes: number;
  /** Wall clock, first byte to last byte, seconds (null = unknown). */
  seconds: number | null;
  /** Wall-clock aggregate and per-stream sum, bit/s (null = unknown). */
  wallClockBitsPerSec: number | null;
  streamSumBitsPerSec: number | null;
  partial: boolean;
}

/**
 * A final interval shorter than this share of the sample interval is a sliver
 * closed by the run's end; its rate is noise (a few bytes over milliseconds),
 * so it is left off the line (its bytes still count in the totals).
 */
const SLIVER_SHARE = 0.2;

/** bit/s per interval from the receiver's byte counts; gaps where the count is missing. */
export function intervalRates(intervals: IntervalResult[], intervalSeconds: number): OverlayPoint[] {
  const points: OverlayPoint[] = [];
  intervals.forEach((iv, i) => {
    if (!(iv.seconds > 0)) return;
    const last = i === intervals.length - 1;
    if (last && i > 0 && iv.seconds < SLIVER_SHARE * intervalSeconds) return;
    points.push({ x: iv.t, y: iv.receivedBytes === null ? null : (iv.receivedBytes * 8) / iv.seconds });
  });
  return points;
}

/** `2 streams, forward, window 64.0 KiB` (or `OS-default window`), `, emulated link: satellite` when there was one. */
export function describeParams(r: LonghaulResult): string {
  const p = r.params;
  const window = p.windowBytes === null ? 'OS-default window' : `window ${formatBinaryBytes(p.windowBytes)}`;
  const limit = p.seconds !== null ? `limit ${formatSeconds(p.seconds, 0)}` : p.bytes !== null ? `limit ${formatBinaryBytes(p.bytes)}` : null;
  const link = r.link ? `, emulated link: ${r.link.preset ?? 'custom'}` : ', direct';
  return `${p.streams} stream${p.streams === 1 ? '' : 's'}, ${p.direction}, ${window}${limit ? `, ${limit}` : ''}${link}`;
}

/** Points a line keeps at most (twice the buckets of `decimate`): Chart.js lays out each one at every redraw. */
export const MAX_OVERLAY_POINTS = 2000;

/**
 * At most `max` points for a line of any length: its first and last, and between them consecutive
 * points bucketed, each bucket keeping its lowest and highest rate in time order, so a stall or a burst stays visible where a mean
 * would smooth it away. A gap (null) is kept as a gap in its bucket.
 */
export function decimate(points: OverlayPoint[], max = MAX_OVERLAY_POINTS): OverlayPoint[] {
  if (points.length <= max) return points;
  // Two points per bucket, and room for the first and last point (the line spans the whole run).
  const per = Math.ceil(points.length / Math.floor((max - 2) / 2));
  const out: OverlayPoint[] = [];
  for (let at = 0; at < points.length; at += per) {
    const bucket = points.slice(at, at + per);
    const known = bucket.filter((p): p is OverlayPoint & { y: number } => p.y !== null);
    const gap = bucket.find((p) => p.y === null) ?? null;
    const [firstKnown] = known;
    if (!firstKnown) {
      if (gap) out.push(gap);
      continue;
    }
    const lo = known.reduce((a, p) => (p.y < a.y ? p : a), firstKnown);
    const hi = known.reduce((a, p) => (p.y > a.y ? p : a), firstKnown);
    // With a gap, the gap and the low point (a stall stays visible); else the low and the high.
    const keep = gap ? [lo, gap] : lo === hi ? [lo] : [lo, hi];
    out.push(...keep.sort((p, q) => p.x - q.x));
  }
  const first = points[0];
  const last = points.at(-1);
  if (first && out[0] !== first) out.unshift(first);
  if (last && out.at(-1) !== last) out.push(last);
  return out;
}

/** Shape one stored run for the overlay; `formatDate` renders `startedAt` (the UI passes the locale's format). */
export function overlayRun(r: LonghaulResult, formatDate: (iso: string) => string = (iso) => iso): OverlayRun {
  const label = `${formatDate(r.startedAt)} · ${r.controller.hostname} → ${r.responder.hostname} (${r.writtenBy}'s file) · ${describeParams(r)}${r.partial ? ' · partial' : ''}`;
  return {
    id: r.id,
    label,
    points: decimate(intervalRates(r.intervals, r.params.intervalSeconds)),
    bytes: r.total.bytes,
    seconds: r.total.seconds,
    wallClockBitsPerSec: r.total.bitsPerSecond,
    streamSumBitsPerSec: r.total.streamSumBitsPerSecond,
    partial: r.partial,
  };
}

/**
 * Toggle `id` in the selection of runs to compare, at most `max` of them. One more than `max` is refused
 * (null), never made room for by unticking another behind the user's back: the caller says why.
 */
export function toggleCompare(selected: readonly string[], id: string, max = 2): string[] | null {
  if (selected.includes(id)) return selected.filter((s) => s !== id);
  return selected.length >= max ? null : [...selected, id];
}
