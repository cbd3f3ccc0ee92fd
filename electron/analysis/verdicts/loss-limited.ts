/**
 * Loss-limited: retransmissions ÷ segments sent is the loss rate p, and a loss-based congestion
 * control (Reno, CUBIC) averages about MSS × 1.22 ÷ (RTT × √p) per stream (Mathis et al. 1997, an
 * estimate for Reno). BBR does not back off for random loss, so for it loss is reported as
 * present, not the limit. A bottleneck queue that overflows also causes retransmits; there the
 * RTT stands well above the minimum and the rate is above the estimate, so the link is named instead.
 */
import type { LimiterInputs } from '../limiter-inputs.js';
import { fig, type FindingNote } from '../../contract/finding.js';
import type { RuleVerdict, VerdictContext } from './context.js';

/** Mathis's constant for Reno with delayed ACKs off: √(3/2). */
const MATHIS_C = Math.sqrt(3 / 2);
/** CUBIC backs off to 0.7 (Reno 0.5) and grows faster: it carries up to about twice Reno's estimate at the same loss. */
const LOSS_BAND = 2;
/**
 * A standing queue of this share of the minimum RTT means the bottleneck stayed busy: its overflow, not random
 * loss, which leaves only delayed ACKs' and jitter's few ms (docs/measurements.md#queue-share).
 */
const QUEUE_SHARE_OF_MIN_RTT = 0.25;
/** Below this loss rate the estimate is far above any rate seen here: not worth a sentence. */
const MIN_LOSS_RATIO = 1e-4;
/** Fewer retransmits than this are too few to estimate a rate from: a slow-start overshoot alone gives a few (docs/measurements.md#min-loss-events). */
const MIN_LOSS_EVENTS = 10;
/** Loss this high is worth naming even where it did not set the rate. */
const NOTE_LOSS_RATIO = 1e-3;

/** Retransmitted ÷ sent segments, or null when either is unknown or nothing was retransmitted. */
export function lossRatio(i: LimiterInputs): number | null {
  const seg = i.segmentsSent ?? null;
  const n = i.retransSegments;
  return n !== null && n > 0 && seg !== null && seg > 0 ? Math.min(1, n / seg) : null;
}

/** Mathis's Reno estimate for `streams` streams, bit/s. */
function mathisBitsPerSecond(p: number, mssBytes: number, rttSeconds: number, streams: number): number {
  return (streams * (mssBytes * 8 * MATHIS_C)) / (rttSeconds * Math.sqrt(p));
}

/**
 * Loss that did not set the rate, as a note on another verdict, or null. For BBR always (it does not slow
 * down for random loss); otherwise only where the rule did not already account for the retransmits (`quoted`).
 */
export function lossNote(i: LimiterInputs, quoted: boolean): FindingNote | null {
  const p = lossRatio(i);
  if (p === null || p < NOTE_LOSS_RATIO || (i.retransSegments ?? 0) < MIN_LOSS_EVENTS) return null;
  if (i.congestionControl === 'bbr') return 'loss-present-bbr';
  return quoted ? null : 'loss-present';
}

export function lossRule(c: VerdictContext, streams: number): RuleVerdict | null {
  const { i } = c;
  const p = lossRatio(i);
  const retrans = i.retransSegments ?? 0;
  const segments = i.segmentsSent ?? 0;
  if (p === null || p < MIN_LOSS_RATIO || retrans < MIN_LOSS_EVENTS || i.congestionControl === 'bbr' || !i.mssBytes) return null;
  const q = i.queueingSeconds ?? null;
  const min = i.minRttSeconds ?? null;
  if (q !== null && min !== null && q >= QUEUE_SHARE_OF_MIN_RTT * min) return null;
  const estimate = mathisBitsPerSecond(p, i.mssBytes, c.rttSeconds, streams);
  if (c.measured > LOSS_BAND * estimate) return null;
  return {
    verdict: 'loss-limited',
    case: 'loss-limited/random-loss',
    figures: { lossModelRate: fig(estimate, 'bit/s', 'model'), mss: fig(i.mssBytes, 'B', 'tcp_info'), segmentsSent: fig(segments, 'count', 'tcp_info') },
  };
}
