/**
 * The congestion window near the measured rate. At any bottleneck cwnd ÷ RTT ≈ the rate (the
 * sender's window settles where the link's queue is), so a binding cwnd alone does not say
 * "congestion control is the limit": with retransmits (the queue overflowed) or a standing queue
 * (the RTT grew under load) the link is; with neither, the window was still growing (slow start
 * in a short run). An unknown retransmit count is said as unknown, never as "none".
 */
import { BINDING_FACTOR, boundsAreTautological, isLocalPath, type RuleVerdict, type VerdictContext } from './context.js';
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
  // Retransmits with a known loss rate reach here only when the rate is above Mathis's estimate
  // for it (loss-limited.ts): the losses did not set the pace, a full bottleneck queue made them.
  const overflowed = (i.retransSegments ?? 0) > 0 && lossRatio(i) !== null;
  if (queued || overflowed) {
    // The sender filled the path up to its bottleneck: the RTT grew under load (a queue stood there), or the losses are its queue overflowing.
    const found = queued ? linkFinding(c, 'link-limited/standing-queue', 'cwnd-queue') : linkFinding(c, 'link-limited/queue-overflow', 'cwnd-overflow');
    return { ...found, quotesRetransmits: true };
  }
  const sub =
    (i.retransSegments ?? 0) > 0
      ? 'congestion-limited/loss-rate-unknown'
      : i.retransSegments === 0
        ? 'congestion-limited/slow-start'
        : 'congestion-limited/retransmits-unknown';
  return { verdict: 'congestion-limited', case: sub, quotesRetransmits: true };
}
