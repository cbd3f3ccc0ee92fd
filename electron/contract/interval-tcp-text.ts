/**
 * An interval's retransmits and cwnd in words, beside its rate, as iperf3 prints `Retr` and `Cwnd`: one
 * rule for the console log, the CLI's interval lines and the Results screen's intervals table. The
 * retransmit count follows retrans-text.ts (Windows' count is an estimate, marked `≈`; unknown is
 * "unknown", never 0). Where the sender sent no TCP readings at all (an older result, no addon) the
 * interval has no such fields and both cells say "unknown".
 */
import type { IntervalStream } from './result.js';
import { retransParts } from './retrans-text.js';
import { formatBytes } from './units.js';

/** `12`, `≈12`, `0`, or `unknown`: the retransmits of one stream in one interval. */
export function intervalRetransText(s: Pick<IntervalStream, 'retransSegments' | 'retransSource'>): string {
  return retransParts({ segments: s.retransSegments ?? null, ...(s.retransSource ? { source: s.retransSource } : {}) }, '').figure;
}

/** `1.2 MB` or `unknown`: the sender's cwnd at the interval's end. */
export function intervalCwndText(s: Pick<IntervalStream, 'cwndBytes'>): string {
  return s.cwndBytes === null || s.cwndBytes === undefined ? 'unknown' : formatBytes(s.cwndBytes);
}
