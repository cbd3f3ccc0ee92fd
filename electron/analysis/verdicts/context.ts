/**
 * What every verdict rule reads: the inputs and the numbers the diagnosis reports. A rule returns its
 * verdict, case, figures and facts, or null when it does not apply; limiter.ts asks the rules in order.
 * Rules decide and never word: the detail's words are contract/detail-text/.
 */
import type { DiagnosisCase, Figures, FindingFacts, FindingNote } from '../../contract/finding.js';
import type { Diagnosis, LimiterVerdict, Side } from '../../contract/result.js';
import type { LimiterInputs } from '../limiter-inputs.js';

/** A bound "binds" when the measured rate is within this factor of it. */
export const BINDING_FACTOR = 1.5;
/** Share of busy time limited by the window or the send buffer above which the kernel's timers alone decide. */
export const WINDOW_SHARE = 0.5;

/** A rule's answer: the verdict, its sub-case, the figures and facts it used beyond the common ones. */
export interface RuleVerdict {
  verdict: LimiterVerdict;
  case: DiagnosisCase;
  figures?: Figures;
  side?: Side;
  notes?: FindingNote[];
  facts?: FindingFacts;
  /** The detail already accounts for the retransmits (no "loss present" note is added). */
  quotesRetransmits?: boolean;
}

/** The inputs of one direction with the figures every rule quotes. */
export interface VerdictContext {
  i: LimiterInputs;
  numbers: Diagnosis['numbers'];
  /** Measured rate, bit/s (> 0). */
  measured: number;
  /** The RTT the bounds are computed over (the transfer's median smoothed RTT), s. */
  rttSeconds: number;
  rwndShare: number | null;
  sndbufShare: number | null;
}

/** part ÷ whole, capped at 1; null when either is unknown. */
export function share(part: number | null | undefined, whole: number | null | undefined): number | null {
  return part != null && whole != null && whole > 0 ? Math.min(1, part / whole) : null;
}

/** Build the context; null when nothing was measured or the RTT is unknown (the caller says which). */
export function verdictContext(i: LimiterInputs, numbers: Diagnosis['numbers']): VerdictContext | null {
  const measured = i.measuredBitsPerSecond;
  if (measured === null || measured <= 0 || !i.rttSeconds) return null;
  return {
    i,
    numbers,
    measured,
    rttSeconds: i.rttSeconds,
    rwndShare: share(i.rwndLimitedSeconds, i.busySeconds),
    sndbufShare: share(i.sndbufLimitedSeconds, i.busySeconds),
  };
}

/**
 * Below this minimum RTT the two ends are on one PC or one LAN: an RTT above the minimum there is
 * scheduling and the reader's wake-ups, not a queue on a link, and copying bytes, not a wire, is the usual
 * limit. Every rule that tells a local path from a network asks `isLocalPath`.
 */
const LOCAL_MIN_RTT_SECONDS = 0.001;
/** Rates where copying is a known limit on one core (a few Gbit/s per stream on common PCs). */
const FAST_BITS_PER_SECOND = 1e9;

/** Whether a minimum RTT (s) is a local path's: one PC or one LAN. */
export function isLocalPath(minRttSeconds: number): boolean {
  return minRttSeconds < LOCAL_MIN_RTT_SECONDS;
}

/** A local path at a rate where copying on the PCs' cores, not the path, is the likely limit. */
export function isFastLocal(c: VerdictContext): boolean {
  return isLocalPath(c.i.minRttSeconds ?? c.rttSeconds) && c.measured >= FAST_BITS_PER_SECOND;
}
/** The RTT under load this many times the minimum: it grew with what was in flight. */
const INFLATED_RTT_FACTOR = 1.2;

/**
 * On a sub-ms path whose RTT grew under load (loopback: 4 µs minimum, 457 µs while 859 kB were in
 * flight), RTT is in-flight data ÷ rate, so window ÷ RTT and cwnd ÷ RTT equal the measured rate
 * whatever limits it: those ratios prove nothing there, and only the kernel's timers can tell.
 */
export function boundsAreTautological(c: VerdictContext): boolean {
  const min = c.i.minRttSeconds ?? null;
  return min !== null && min > 0 && isLocalPath(min) && c.rttSeconds >= INFLATED_RTT_FACTOR * min;
}
