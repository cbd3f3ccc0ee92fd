/**
 * Receiver-limited by its CPU: the receiving side's reader thread always had work (it was running or
 * ready to run nearly the whole transfer: a blocking reader with nothing to read sleeps) yet mostly
 * waited for a core. A cgroup quota does exactly this, and so does a PC busy with other work; either
 * way the reader, not the path or a buffer, set the rate. The kernel's view alone cannot tell it: the
 * throttled reader holds its socket while it waits, arriving segments wait in the backlog unacknowledged,
 * and the sender sees a long RTT with an open window, which reads as "the path is the limit"
 * (docs/measurements.md#starved-reader).
 */
import type { DataThreadCpu, Side } from '../../contract/result.js';
import { fig } from '../../contract/finding.js';
import { type RuleVerdict, type VerdictContext } from './context.js';

/**
 * The reader waited for a core at least this share of the transfer: it had data to read at least that long (a
 * reader with nothing to read sleeps, and waits only briefly on each wake-up) and could not read it. Waiting
 * alone decides: a PC busy with other programs makes any running-time bound unreliable
 * (docs/measurements.md#starved-reader, #starved-reader-second-bound).
 */
const STARVED_WAIT_SHARE = 0.5;

/** The receiving side's most starved reader thread, with its wait as a share of the transfer; null when none says. */
function starvedReader(c: VerdictContext, receiver: Side): { t: DataThreadCpu; wait: number } | null {
  const use = c.i.cpu?.[receiver];
  if (!use?.threads || use.wallSeconds <= 0) return null;
  let worst: { t: DataThreadCpu; wait: number } | null = null;
  for (const t of use.threads) {
    if (t.kind !== 'receiver' || t.waitSeconds == null) continue;
    const wait = Math.min(1, t.waitSeconds / use.wallSeconds);
    if (!worst || wait > worst.wait) worst = { t, wait };
  }
  return worst;
}

/** The receiving application's reader was starved of CPU; null when it was not, or it is unknown. */
export function receiverStarvedRule(c: VerdictContext): RuleVerdict | null {
  const { i } = c;
  // Both ends on one PC: a reader waiting for the cores it shares with the sender is the PC's limit (cpu-limited.ts).
  if (i.cpu?.samePc === true) return null;
  const receiver: Side | null = i.senderSide === 'controller' ? 'responder' : i.senderSide === 'responder' ? 'controller' : null;
  if (!receiver) return null;
  const s = starvedReader(c, receiver);
  if (!s || s.wait < STARVED_WAIT_SHARE) return null;
  return {
    verdict: 'receiver-limited',
    case: 'receiver-limited/cpu-starved',
    side: receiver,
    figures: { cpuShareOfCore: fig(s.t.shareOfOneCore, 'share', 'cpu'), readerWaitShare: fig(s.wait, 'share', 'cpu') },
    facts: { readerStreams: s.t.streams },
  };
}
