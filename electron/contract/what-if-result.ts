/**
 * A result's what-if: the path the model keeps fixed (the diagnosis's RTT, the
 * path's rate where known, the loss the run saw) and the cases worth showing
 * (today's configuration, the window that fills the path, 4× the streams, the
 * other common MSS). Pure: the summary, the HTML report and the Results
 * screen's chart all build from this, so they show the same numbers.
 */
import { bdpBytes, rateContradicted, wholeBytesUp } from './path-math.js';
import type { LonghaulResult } from './result.js';
import { predict, windowAxis, type PathModel, type WhatIfPrediction } from './what-if.js';
import { DEFAULT_MSS_BYTES } from './wire.js';
import { shownRate } from './partial-text.js';

/** The classic minimum MSS (RFC 879), the other end of the MSS what-if. */
const SMALL_MSS_BYTES = 536;

export interface WhatIfView {
  path: PathModel;
  /** Which RTT the model uses: the path's minimum (what a window must cover), else the diagnosis's median. */
  rttSource: 'minimum' | 'median';
  /** Where the rate came from, for the caption. */
  rateSource: 'given' | 'measured' | 'emulated link' | null;
  /** A stated rate the measured one exceeded (path-math.ts, rateContradicted), left out of the model, bit/s; null: none. */
  rateLeftOut: number | null;
  /** Where the loss came from. */
  lossSource: 'emulated link' | 'retransmissions' | null;
  mssBytes: number;
  /** Today's configuration: window per stream (the advertised window the sender saw, else the request), streams. */
  today: WhatIfPrediction;
  /** What the direction carried, bit/s (wall-clock aggregate). */
  measuredBitsPerSecond: number | null;
  cases: { label: string; prediction: WhatIfPrediction }[];
}

/** The what-if of a result's first diagnosed direction; null without a diagnosis RTT. */
export function whatIfOf(r: LonghaulResult): WhatIfView | null {
  const d = (r.diagnosis ?? []).find((x) => x.numbers.rttSeconds !== null && x.numbers.rttSeconds > 0);
  const medianRtt = d?.numbers.rttSeconds;
  if (!d || !medianRtt) return null;
  // The window has to cover the path's own RTT; the median while data flowed adds delayed ACKs and
  // the window's own queue (1.337 s against 1.302 s on the seed link with 8,760 B).
  const minRtt = d.numbers.minRttSeconds ?? null;
  const rttSeconds = minRtt !== null && minRtt > 0 ? minRtt : medianRtt;
  const rttSource = minRtt !== null && minRtt > 0 ? 'minimum' : 'median';
  const link = r.link?.settings ?? null;
  const stated = r.pathRate?.bitsPerSecond ?? link?.rateBitsPerSec ?? null;
  const total = r.directions[d.direction];
  // A partial run's measured rate is the one over the seconds measured (PartialRate), as its verdict's.
  const measured = total ? shownRate(total).bitsPerSecond : null;
  const rateLeftOut = rateContradicted(stated, measured) ? stated : null;
  const rate = rateLeftOut === null ? stated : null;
  const rateSource = rate === null ? null : r.pathRate ? r.pathRate.source : 'emulated link';
  const sender = d.direction === 'controllerToResponder' ? 'controller' : 'responder';
  const streams = Math.max(1, r.streams.filter((s) => s.sender === sender).length);
  const mssBytes = link?.mssBytes ?? r.mss?.sendMssBytes?.max ?? DEFAULT_MSS_BYTES;
  // Loss: the emulated link's model; else retransmitted segments over segments sent, but only when the
  // verdict says congestion control set the pace. Elsewhere retransmissions are no loss rate: at a 1.3 s
  // RTT the 1 s initial RTO retransmits the first segments spuriously (2 of ~60 in an 8,760-byte run:
  // "3 % loss" would put Reno's bound at 0.09 Mbit/s, where 2.4 Mbit/s was then measured).
  let lossRatio: number | null = null;
  let lossSource: WhatIfView['lossSource'] = null;
  if (link && link.lossRatio > 0) [lossRatio, lossSource] = [link.lossRatio, 'emulated link'];
  else if (!link && (d.verdict === 'congestion-limited' || d.verdict === 'loss-limited') && d.numbers.retransSegments && total && total.sentBytes > 0) {
    [lossRatio, lossSource] = [d.numbers.retransSegments / (total.sentBytes / mssBytes), 'retransmissions'];
  }
  const path: PathModel = { rttSeconds, rateBitsPerSec: rate, lossRatio };
  const todayWindow = link ? link.windowBytes : d.numbers.windowBytes !== null ? d.numbers.windowBytes / streams : r.params.windowBytes;
  const today = predict(path, { windowBytes: todayWindow, streams, mssBytes });
  const cases: WhatIfView['cases'] = [];
  if (rate !== null) {
    const fill = wholeBytesUp(bdpBytes(rate, rttSeconds) / streams);
    cases.push({ label: 'the window that fills the path', prediction: predict(path, { windowBytes: fill, streams, mssBytes }) });
  }
  if (todayWindow !== null)
    cases.push({ label: "4 × today's streams, today's window", prediction: predict(path, { windowBytes: todayWindow, streams: streams * 4, mssBytes }) });
  const otherMss = mssBytes === DEFAULT_MSS_BYTES ? SMALL_MSS_BYTES : DEFAULT_MSS_BYTES;
  if (rate !== null || lossRatio !== null)
    cases.push({ label: `MSS ${otherMss} B, today's window`, prediction: predict(path, { windowBytes: todayWindow, streams, mssBytes: otherMss }) });
  return { path, rttSource, rateSource, rateLeftOut, lossSource, mssBytes, today, measuredBitsPerSecond: measured, cases };
}

/** The what-if chart's data: predicted payload rate over window per stream, for today's streams and 4× them, and the measured run. */
export interface WhatIfCurves {
  /** One line per stream count; points are [window per stream in bytes, predicted bit/s]. */
  lines: { streams: number; points: [number, number][] }[];
  /** The measured run at today's window per stream, bit/s; null when either is unknown. */
  measured: { windowBytes: number; bitsPerSecond: number } | null;
  /** The window that fills the path (where the rate is known), bytes. */
  fillBytes: number | null;
  /**
   * Where the y axis stops when the lines were cut there, bit/s (WHAT_IF_Y_CLAMP × the measured rate);
   * null: the axis holds every point. `top` is the lines' own highest point, bit/s.
   */
  yAxis: { max: number; top: number } | null;
}

/**
 * With no path rate nothing caps the model's lines but the window over the RTT, and on a LAN or
 * loopback (tens of µs) that reaches hundreds of thousands of Gbit/s, which squashes the measured
 * run flat on the axis. The chart then stops at this many times the measured rate and says so.
 * With a rate the lines level off at it, and the gap up to that plateau is the point: never cut.
 */
export const WHAT_IF_Y_CLAMP = 5;

/** Up to the next 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 × a power of ten, so the axis's top tick reads 120 Gbit/s, not 108.87. */
function roundUp(v: number): number {
  const mag = 10 ** Math.floor(Math.log10(v));
  const step = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((m) => m * mag >= v * (1 - 1e-12)) ?? 10;
  return Number((step * mag).toPrecision(12));
}

/** A window-axis tick label: 4096 → "4k", 2,000,000 → "2M" (the Results screen's chart and the HTML report's). */
export function windowTickLabel(bytes: number): string {
  return bytes >= 1e6 ? `${Number((bytes / 1e6).toPrecision(2))}M` : `${Math.round(bytes / 1e3)}k`;
}

/** One copy of the chart's curves, for the Results screen and the HTML report alike. */
export function whatIfCurves(w: WhatIfView): WhatIfCurves {
  const fillBytes = w.cases.find((c) => c.label.startsWith('the window that fills'))?.prediction.windowBytes ?? null;
  const today = w.today.windowBytes;
  const axis = windowAxis(
    Math.max(fillBytes ?? 0, today ?? 0, 65_536),
    [today, fillBytes].filter((v): v is number => v !== null),
  );
  const line = (streams: number): [number, number][] =>
    axis.map((win) => [win, predict(w.path, { windowBytes: win, streams, mssBytes: w.mssBytes }).bitsPerSecond ?? 0]);
  const measured = w.measuredBitsPerSecond !== null && today !== null ? { windowBytes: today, bitsPerSecond: w.measuredBitsPerSecond } : null;
  const lines = [w.today.streams, w.today.streams * 4].map((streams) => ({ streams, points: line(streams) }));
  const top = Math.max(0, ...lines.flatMap((l) => l.points.map(([, y]) => y)));
  const max = measured && measured.bitsPerSecond > 0 ? roundUp(WHAT_IF_Y_CLAMP * measured.bitsPerSecond) : null;
  const yAxis = w.path.rateBitsPerSec === null && max !== null && top > max ? { max, top } : null;
  return { lines, measured, fillBytes, yAxis };
}
