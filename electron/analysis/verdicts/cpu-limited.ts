/**
 * CPU-limited: a side's process, or one of its native data threads, near one full core over the
 * transfer (result.cpu); or both ends on this PC with its cores near fully busy, where the
 * sender, the receiver and the kernel's copying share the same cores and no one thread need be near
 * a core. Without CPU figures, a loopback or LAN run at multi-Gbit/s with a sub-ms RTT that no window
 * explains is not claimed for the path: copying bytes on shared cores is the likely limit there, and
 * the finding says it was not measured (`facts.cpuUnknown`).
 */
import { fig, type Figures } from '../../contract/finding.js';
import type { CpuUse, PcCpu, Side } from '../../contract/result.js';
import { isFastLocal, share, type RuleVerdict, type VerdictContext } from './context.js';

/** A thread (or single-threaded process) this close to one full core had no time to spare. */
const NEAR_ONE_CORE = 0.9;
/** All of the PC's cores this busy over the transfer: nothing was left for either end (docs/measurements.md#pc-busy). */
const PC_BUSY = 0.9;

/** The busiest data thread (`thread` null: the process as a whole is the figure) and its share of one core. */
function busiest(use: CpuUse): { thread: { kind: string; streams: number[] } | null; share: number } {
  const thread = (use.threads ?? []).reduce<{ thread: { kind: string; streams: number[] }; share: number } | null>(
    (a, t) => (a === null || t.shareOfOneCore > a.share ? { thread: { kind: t.kind, streams: t.streams }, share: t.shareOfOneCore } : a),
    null,
  );
  return thread && thread.share >= use.shareOfOneCore / Math.max(1, use.threads?.length ?? 1) ? thread : { thread: null, share: use.shareOfOneCore };
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
    return {
      verdict: 'cpu-limited',
      case: 'cpu-limited/process',
      side,
      figures: { cpuShareOfCore: fig(b.share, 'share', 'cpu') },
      facts: { busiest: b.thread },
    };
  }
  return null;
}

/** The PC's figures both ends recorded (one PC: either will do; the busier is taken), or null when neither did. */
function onePc(c: VerdictContext): PcCpu | null {
  const cpu = c.i.cpu;
  if (!cpu || cpu.samePc !== true) return null;
  const pcs = [cpu.controller?.pc, cpu.responder?.pc].filter((p): p is PcCpu => p != null);
  return pcs.reduce<PcCpu | null>((a, p) => (a === null || p.busyShare > a.busyShare ? p : a), null);
}

/** Both ends ran on this PC, as the result records it, but its cores' busy share was not measured. */
export function samePcUnmeasured(c: VerdictContext): boolean {
  return c.i.cpu?.samePc === true && onePc(c) === null;
}

/** The data threads' waits for a core as shares of the transfer: the time they were ready to run and were not. */
function threadWaits(cpu: NonNullable<VerdictContext['i']['cpu']>): { kind: string; streams: number[]; share: number }[] {
  return (['controller', 'responder'] as Side[]).flatMap((side) => {
    const use = cpu[side];
    if (!use || use.wallSeconds <= 0) return [];
    return (use.threads ?? []).flatMap((t) =>
      t.waitSeconds == null ? [] : [{ kind: t.kind, streams: t.streams, share: Math.min(1, t.waitSeconds / use.wallSeconds) }],
    );
  });
}

/**
 * Both ends on this PC and its cores near fully busy: this PC's CPU, shared by both ends and the
 * kernel, is the limit. The share not charged to Longhaul's processes is named (the kernel's
 * packet processing, the time threads waited for a core, other programs).
 */
export function pcCpuRule(c: VerdictContext): RuleVerdict | null {
  const pc = onePc(c);
  const cpu = c.i.cpu;
  if (!pc || !cpu) return null;
  // Below full busy, a fast run at a sub-millisecond RTT between two ends on one PC still has no network
  // to blame: the threads took turns on the cores (the waits below say how long), so the PC stays the limit.
  const local = isFastLocal(c);
  if (pc.busyShare < PC_BUSY && !local) return null;
  const cores = cpu.controller?.cores ?? cpu.responder?.cores ?? null;
  const busy = share(c.i.busySeconds, c.i.transferSeconds);
  const figures: Figures = { pcBusyShare: fig(pc.busyShare, 'share', 'cpu') };
  if (cores !== null) figures.cores = fig(cores, 'cores', 'cpu');
  if (pc.interruptShare !== null) figures.interruptShare = fig(pc.interruptShare, 'share', 'cpu');
  if (pc.stealShare != null) figures.stealShare = fig(pc.stealShare, 'share', 'cpu');
  if (cpu.controller) figures.controllerCpuShare = fig(cpu.controller.shareOfOneCore, 'share', 'cpu');
  if (cpu.responder) figures.responderCpuShare = fig(cpu.responder.shareOfOneCore, 'share', 'cpu');
  if (busy !== null) figures.senderBusyShare = fig(busy, 'share', 'measured');
  const waits = threadWaits(cpu);
  return {
    verdict: 'cpu-limited',
    case: 'cpu-limited/same-pc',
    figures,
    facts: { ...(pc.busyShare < PC_BUSY ? { notAllBusy: true } : {}), ...(waits.length ? { threadWaits: waits } : {}) },
  };
}

/** Without CPU figures (or, with both ends on this PC, without its cores' busy share): a fast local run that no window or timer explains. */
export function cpuLikelyRule(c: VerdictContext): RuleVerdict | null {
  const unmeasured = !c.i.cpu || samePcUnmeasured(c);
  if (!unmeasured || !isFastLocal(c)) return null;
  return {
    verdict: 'cpu-limited',
    case: 'cpu-limited/unmeasured',
    facts: { cpuUnknown: c.i.cpu ? 'pc-unmeasured' : 'not-measured' },
  };
}
