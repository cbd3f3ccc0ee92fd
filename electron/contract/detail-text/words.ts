/**
 * What every detail sentence shares: a finding's figures read by name, the measured rate and the RTT in
 * words, shares, retransmit counts and the bounds that would carry more. Words only; the decisions are
 * the analysis's (electron/analysis/), carried in the finding's case, figures, notes and facts.
 */
import type { FigureName } from '../finding.js';
import type { Diagnosis } from '../result.js';
import { formatRateShort, formatRtt, formatShare } from '../units.js';

/** A finding's data, without the direction it belongs to and the words rendered from it. */
export type FindingData = Omit<Diagnosis, 'sentence' | 'direction'>;

/** A figure's value by name, or null when the finding does not carry it. */
export function figure(d: FindingData, name: FigureName): number | null {
  return d.figures?.[name]?.value ?? null;
}

/** A share as every line of Longhaul writes it (the answer too): `42 %`. */
export const pct = formatShare;

/** A loss share to two significant digits: `1.2 %`. */
export function lossPct(p: number): string {
  return `${Number((p * 100).toPrecision(2))} %`;
}

/** The measured rate in words (`0 bit/s` when unknown: a rule only speaks of a measured direction). */
export function measuredText(d: FindingData): string {
  return formatRateShort(figure(d, 'measured') ?? d.numbers.measuredBitsPerSecond ?? 0);
}

/** The RTT the bounds were computed over, in words. */
export function rttText(d: FindingData): string {
  return formatRtt(figure(d, 'rtt') ?? d.numbers.rttSeconds ?? 0);
}

/** The retransmit count in words: a count, an estimate from bytes, or unknown — never a guessed 0. */
export function retransWords(d: FindingData): string {
  const n = d.numbers.retransSegments;
  if (n === null) return 'retransmissions unknown (this OS did not report them)';
  if (n === 0) return 'no retransmissions';
  const est = d.facts?.retransEstimated ? ' (estimated from bytes retransmitted ÷ MSS)' : '';
  return `${n.toLocaleString('en-US')} retransmitted segment${n === 1 ? '' : 's'}${est}`;
}

/** The bounds that would carry more than the measured rate: "the window allows X and the congestion window Y". */
export function boundsText(d: FindingData): string {
  const w = d.numbers.windowBitsPerSecond;
  const c = d.numbers.cwndBitsPerSecond;
  return [w !== null ? `the window allows ${formatRateShort(w)}` : null, c !== null ? `the congestion window ${formatRateShort(c)}` : null]
    .filter((x): x is string => x !== null)
    .join(' and ');
}
