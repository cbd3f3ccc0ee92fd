/**
 * What-if: the throughput the model predicts for a path of a given RTT, rate
 * and loss with other windows, stream counts or MSS values. Pure, shared by
 * the engine (diagnosis, advice), the reports and the renderer's chart, so
 * the figure in the summary and the point on the chart are one rule.
 *
 * The model, per direction, payload bits per second:
 *   min( rate × payload share(MSS),            the link, less 66 header bytes per segment
 *        streams × window × 8 / RTT,           at most one window in flight per round trip
 *        streams × MSS × √(3 / (2p)) × 8 / RTT ) Reno's average window under loss p (Mathis et al.), only when p > 0
 * A term whose input is unknown (no rate given, no loss measured) is left out,
 * and the prediction names which term bound it.
 */
import { payloadFraction } from './wire.js';
import { pathRateWhere, type Door } from './door.js';

/** The path as measured (or as emulated): what stays the same in every what-if. */
export interface PathModel {
  /** Round-trip time, seconds (the figure the diagnosis used). */
  rttSeconds: number;
  /** The path's wire rate, bit/s; null when unknown (then only the window and the loss bound it). */
  rateBitsPerSec: number | null;
  /** Segment loss ratio 0–1; 0 or null: no loss term. */
  lossRatio: number | null;
}

/** One configuration to predict for. */
interface WhatIfCase {
  /** Window per stream, bytes (null: unlimited by the window, e.g. autotuning big enough). */
  windowBytes: number | null;
  streams: number;
  mssBytes: number;
}

type WhatIfBound = 'rate' | 'window' | 'loss' | 'none';

export interface WhatIfPrediction extends WhatIfCase {
  /** Predicted payload rate after slow start, bit/s; null when nothing bounds it (no rate, no window, no loss). */
  bitsPerSecond: number | null;
  /** Which term of the model gave the minimum. */
  bound: WhatIfBound;
  /** Slow start's ramp to that rate: round trips and seconds (0 when the initial window already fills it). */
  rampRoundTrips: number;
  rampSeconds: number;
}

/** Initial congestion window, segments (Linux since 2.6.39, RFC 6928). */
export const INITIAL_WINDOW_SEGMENTS = 10;

/** Reno's average window under loss ratio p, bytes per stream: MSS × √(3 / (2p)); null without loss. */
export function renoWindowBytes(lossRatio: number | null, mssBytes: number): number | null {
  return lossRatio !== null && lossRatio > 0 ? mssBytes * Math.sqrt(3 / (2 * lossRatio)) : null;
}

/**
 * Slow start from 10 × MSS, doubling per round trip, until a stream has `targetBytes` in flight:
 * how many round trips that takes. 0 when the initial window already holds it.
 */
export function rampRoundTrips(targetBytes: number, mssBytes: number): number {
  const initial = INITIAL_WINDOW_SEGMENTS * mssBytes;
  return targetBytes <= initial ? 0 : Math.ceil(Math.log2(targetBytes / initial));
}

/** The model's prediction for one case. */
export function predict(path: PathModel, c: WhatIfCase): WhatIfPrediction {
  const streams = Math.max(1, c.streams);
  const terms: [WhatIfBound, number][] = [];
  if (path.rateBitsPerSec !== null) terms.push(['rate', path.rateBitsPerSec * payloadFraction(c.mssBytes)]);
  if (c.windowBytes !== null && path.rttSeconds > 0) terms.push(['window', (streams * c.windowBytes * 8) / path.rttSeconds]);
  const reno = renoWindowBytes(path.lossRatio, c.mssBytes);
  if (reno !== null && path.rttSeconds > 0) terms.push(['loss', (streams * reno * 8) / path.rttSeconds]);
  const best = terms.reduce<[WhatIfBound, number] | null>((a, t) => (a === null || t[1] < a[1] ? t : a), null);
  const bitsPerSecond = best ? best[1] : null;
  // In flight per stream at that rate is what slow start has to reach.
  const targetBytes = bitsPerSecond === null ? 0 : (bitsPerSecond * path.rttSeconds) / 8 / streams;
  const rtts = rampRoundTrips(targetBytes, c.mssBytes);
  return { ...c, streams, bitsPerSecond, bound: best ? best[0] : 'none', rampRoundTrips: rtts, rampSeconds: rtts * path.rttSeconds };
}

/** The model in words, for a report or a chart caption: says which terms are in play; `askRate`: the door to ask an unknown rate in, or null. */
export function modelText(path: PathModel, askRate: Door | null): string {
  const terms = [
    path.rateBitsPerSec !== null ? 'rate × payload share' : null,
    'streams × window / RTT',
    path.lossRatio !== null && path.lossRatio > 0 ? "streams × MSS × √(3/(2p)) / RTT (Reno's loss formula)" : null,
  ].filter((t): t is string => t !== null);
  return (
    `min(${terms.join(', ')}), after slow start (${INITIAL_WINDOW_SEGMENTS} × MSS doubling per round trip)` +
    (path.rateBitsPerSec === null && askRate !== null ? `; the path's rate is unknown, so no rate term (${pathRateWhere(askRate)})` : '')
  );
}

/** Window sizes for a chart's x axis: powers of two from 4 KiB up to past `upToBytes`, plus the given ones, sorted. */
export function windowAxis(upToBytes: number, extra: number[] = []): number[] {
  const xs = new Set<number>(extra.filter((x) => x > 0).map(Math.round));
  const top = Math.max(upToBytes * 2, 65536);
  for (let w = 4096; ; w *= 2) {
    xs.add(w);
    if (w >= top) break;
  }
  return [...xs].sort((a, b) => a - b);
}
