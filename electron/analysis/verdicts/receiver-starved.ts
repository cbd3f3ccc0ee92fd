/**
 * Receiver-limited by its CPU: the receiving side's reader thread always had work (it was running or
 * ready to run nearly the whole transfer: a blocking reader with nothing to read sleeps) yet mostly
 * waited for a core. A cgroup quota does exactly this, and so does a PC busy with other work; either
 * way the reader, not the path or a buffer, set the rate. The kernel's view alone cannot tell it: the
 * throttled reader holds its socket while it waits, arriving segments wait in the backlog unacknowledged,
 * and the sender sees a long RTT with an open window, which reads as "the path is the limit".
 * Measured on the WAN harness (10 Gbit/s tbf, no added delay): unquota'd the reader ran at 0.77 of a
 * core for 3.5 Gbit/s; held to 5 % of a core it waited for one 84-94 % of the time and the run fell to 0.5-1 Gbit/s.
 */
import type { DataThreadCpu, Side } from '../../contract/result.js';
import { fig } from '../../contract/finding.js';
import { type RuleVerdict, type VerdictContext } from './context.js';

/**
 * The reader waited for a core at least this share of the transfer: it had data to read at least that long (a
 * reader with nothing to read sleeps, and waits only briefly on each wake-up) and could not read it. Measured:
 * the quota'd reader waited 0.84-0.94; readers on 10 and 50 Mbit/s links, asleep for want of data, 0.02-0.05;
 * the fast path without the quota 0.42 (not starved). A second bound, running or waiting ≥ 0.8 of the transfer,
 * was dropped on 2026-12-05: with two other programs keeping both cores busy the quota'd reader slept 0.09-0.22
 * of the transfer while the starved sender was late (running 0.05, waiting 0.73-0.86), and the row read as the
 * sender's idleness (1 run of 3 here, and the fresh-clone CI run of that day).
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
