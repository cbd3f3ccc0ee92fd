/**
 * A partial run's rate in words, the convention "partial: over the N.N s measured" (docs/results.md,
 * "Partial results"): every report, the CLI's lines and the Results screen label it the same way. The
 * figures are the result's `partialRate` (engine/session/run-recorder.ts); only the words are made here.
 */
import type { PartialRate } from './result.js';
import { formatRate } from './units.js';

/** A stream, a direction or the total: its wall-clock figures and, in a partial run, its rate over the seconds measured. */
interface Rated {
  bitsPerSecond: number | null;
  seconds: number | null;
  partialRate?: PartialRate;
}

/** The rate a report shows and the seconds it covers: in a partial run the rate over the seconds measured, else the wall-clock figure. */
export function shownRate(x: Rated): { bitsPerSecond: number | null; seconds: number | null; partial: boolean } {
  if (x.partialRate) return { bitsPerSecond: x.partialRate.bitsPerSecond, seconds: x.partialRate.seconds, partial: true };
  return { bitsPerSecond: x.bitsPerSecond, seconds: x.seconds, partial: false };
}

/** Seconds as the label says them: one decimal, two significant digits under a second (a run stopped at once). */
function secondsText(s: number): string {
  return s >= 1 ? s.toFixed(1) : s.toPrecision(2);
}

/** `partial: over the 1.0 s measured` */
export function partialLabel(p: PartialRate): string {
  return `partial: over the ${secondsText(p.seconds)} s measured`;
}

/** The rate with its label, `21.01 Gbit/s (partial: over the 1.0 s measured)`, or the wall-clock rate alone (`unknown` when unknown). */
export function rateText(x: Rated): string {
  return x.partialRate ? `${formatRate(x.partialRate.bitsPerSecond)} (${partialLabel(x.partialRate)})` : formatRate(x.bitsPerSecond);
}
