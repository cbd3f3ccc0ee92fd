/**
 * The congestion window near the measured rate. At any bottleneck cwnd ÷ RTT ≈ the rate (the
 * sender's window settles where the link's queue is), so a binding cwnd alone does not say
 * "congestion control is the limit": with retransmits (the queue overflowed) or a standing queue
 * (the RTT grew under load) the link is; with neither, the window was still growing (slow start
 * in a short run). An unknown retransmit count is said as unknown, never as "none".
 */
import { formatRateShort, groupDigits } from '../../contract/units.js';
import { BINDING_FACTOR, boundsAreTautological, isLocalPath, retransWords, type RuleVerdict, type VerdictContext } from './context.js';
import { linkFinding } from './link-limited.js';
import { lossRatio } from './loss-limited.js';

/** The RTT under load this much above the minimum: a queue stood at the bottleneck. */
const QUEUE_SHARE_OF_MIN_RTT = 0.2;

export function congestionRule(c: VerdictContext): RuleVerdict | null {
  const { i, numbers } = c;
  const cap = numbers.cwndBitsPerSecond;
  if (cap === null || i.cwndBytes === null || c.measured * BINDING_FACTOR < cap || boundsAreTautological(c)) return null;
  const q = i.queueingSeconds ?? null;
  const min = i.minRttSeconds ?? null;
  const queued = q !== null && min !== null && !isLocalPath(min) && q >= QUEUE_SHARE_OF_MIN_RTT * min;
  const head = `Congestion window ${groupDigits(i.cwndBytes)} B over RTT ${c.rtt} allows at most ${formatRateShort(cap)}; measured ${c.m} with ${retransWords(i)}`;
  // Retransmits with a known loss rate reach here only when the rate is above Mathis's estimate
  // for it (loss-limited.ts): the losses did not set the pace, a full bottleneck queue made them.
  const overflowed = (i.retransSegments ?? 0) > 0 && lossRatio(i) !== null;
  if (queued || overflowed) {
    const why = queued ? 'the RTT grew under load, so a queue stood at the bottleneck' : "the losses are the bottleneck's queue overflowing";
    const found = linkFinding(
      c,
      queued ? 'link-limited/standing-queue' : 'link-limited/queue-overflow',
      `${head}: the sender filled the path up to its bottleneck (${why}), so the path's bottleneck link is the limit, at about ${c.m}.`,
    );
    return { ...found, quotesRetransmits: true };
  }
  const still =
    (i.retransSegments ?? 0) > 0
      ? ': congestion control, reacting to loss, is the limit; the loss rate is unknown (segments sent were not reported), so random loss and a bottleneck queue overflowing cannot be told apart.'
      : i.retransSegments === 0
        ? ': the congestion window was still growing (slow start) when the run ended, so congestion control is the limit; a longer run shows the path.'
        : ': congestion control is the limit, or the path behind it; without a retransmit count the two cannot be told apart.';
  const sub =
    (i.retransSegments ?? 0) > 0
      ? 'congestion-limited/loss-rate-unknown'
      : i.retransSegments === 0
        ? 'congestion-limited/slow-start'
        : 'congestion-limited/retransmits-unknown';
  return { verdict: 'congestion-limited', case: sub, quotesRetransmits: true, sentence: `${head}${still}` };
}
