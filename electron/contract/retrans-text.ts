/**
 * A retransmit count in words, one rule for every place that shows one (the CLI summary, the Run
 * screen's TCP panel, the result view). Linux and macOS count retransmitted segments; Windows counts
 * only bytes (SIO_TCP_INFO `BytesRetrans`), so there the count is bytes ÷ MSS and is said to be an
 * estimate. Where neither is known the figure is "unknown", never 0.
 */
import { groupDigits } from './units.js';

/** A retransmit figure as the readings give it. */
interface RetransFigure {
  /** Retransmitted segments (counted or estimated), or null when the OS did not say. */
  segments: number | null;
  /** 'estimated': bytes retransmitted ÷ MSS (the OS counts only bytes). Absent: counted. */
  source?: 'counted' | 'estimated';
  /** Bytes retransmitted behind the figure, where known. */
  bytesRetrans?: number | null;
}

/** Where an estimate comes from, for a tooltip or a legend. */
export const RETRANS_ESTIMATE_NOTE = 'Windows counts retransmitted bytes, not segments, so the count is bytes retransmitted / MSS';

/** The figure (`unknown`, `12 segments`, `≈12 segments`) and, for an estimate, where it comes from; for layouts that set them apart. */
export function retransParts(f: RetransFigure, unit = ' segments'): { figure: string; estimatedFrom: string | null } {
  if (f.segments === null || !Number.isFinite(f.segments)) return { figure: 'unknown', estimatedFrom: null };
  const n = `${groupDigits(f.segments)}${unit}`;
  if (f.source !== 'estimated') return { figure: n, estimatedFrom: null };
  const from = f.bytesRetrans !== null && f.bytesRetrans !== undefined && Number.isFinite(f.bytesRetrans) ? `${groupDigits(f.bytesRetrans)} B` : 'bytes';
  return { figure: `≈${n}`, estimatedFrom: `estimated from ${from} retransmitted` };
}

/**
 * `unknown`, `12 segments`, or `≈12 segments (estimated from 17,520 B retransmitted)`; `unit` '' leaves
 * the word "segments" out (`12`, `≈12 (estimated from …)`).
 */
export function retransText(f: RetransFigure, unit = ' segments'): string {
  const p = retransParts(f, unit);
  return p.estimatedFrom ? `${p.figure} (${p.estimatedFrom})` : p.figure;
}
