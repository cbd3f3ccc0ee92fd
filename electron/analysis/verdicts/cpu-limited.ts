/**
 * CPU-limited: a side's process, or one of its native data threads, near one full core over the
 * transfer (result.cpu). Without CPU figures, a loopback or LAN run at multi-Gbit/s with a sub-ms
 * RTT that no window explains is not claimed for the path: copying bytes on shared cores is the
 * likely limit there, and the sentence says it was not measured.
 */
import type { CpuUse, Side } from '../../contract/result.js';
import { pct, type RuleVerdict, type VerdictContext } from './context.js';

/** A thread (or single-threaded process) this close to one full core had no time to spare. */
const NEAR_ONE_CORE = 0.9;
/** Sub-millisecond minimum RTT: the two ends are on one PC or one LAN, where the wire rarely limits before the CPU. */
const LOCAL_RTT_SECONDS = 0.001;
/** Rates where copying is a known limit on one core (a few Gbit/s per stream on common PCs). */
const FAST_BITS_PER_SECOND = 1e9;

function busiest(use: CpuUse): { what: string; share: number } {
  const thread = (use.threads ?? []).reduce<{ what: string; share: number } | null>(
    (a, t) => (a === null || t.shareOfOneCore > a.share ? { what: `its ${t.kind} thread (streams ${t.streams.join(', ')})`, share: t.shareOfOneCore } : a),
    null,
  );
  return thread && thread.share >= use.shareOfOneCore / Math.max(1, use.threads?.length ?? 1) ? thread : { what: 'its process', share: use.shareOfOneCore };
}

/** From measured CPU: a side or data thread near one core. */
export function cpuRule(c: VerdictContext): RuleVerdict | null {
  const cpu = c.i.cpu;
  if (!cpu) return null;
  for (const side of ['controller', 'responder'] as Side[]) {
    const use = cpu[side];
    if (!use) continue;
    const b = busiest(use);
    if (b.share < NEAR_ONE_CORE) continue;
    const role = side === c.i.senderSide ? 'sending' : 'receiving';
    return {
      verdict: 'cpu-limited',
      sentence: `The ${role} side (the ${side}): ${b.what} used ${pct(b.share)} of one core while moving ${c.m}: the CPU is the limit, not the path.`,
    };
  }
  return null;
}

/** Without CPU figures: a fast local run that no window or timer explains. */
export function cpuLikelyRule(c: VerdictContext): RuleVerdict | null {
  const min = c.i.minRttSeconds ?? c.rttSeconds;
  if (c.i.cpu || min >= LOCAL_RTT_SECONDS || c.measured < FAST_BITS_PER_SECOND) return null;
  return {
    verdict: 'cpu-limited',
    sentence:
      `Measured ${c.m} at RTT ${c.rtt} with the socket kept full and no window binding: on a path this short, copying the bytes on the PCs' cores is the likely limit, ` +
      `not the path; CPU was not measured in this run, so this is unconfirmed.`,
  };
}
