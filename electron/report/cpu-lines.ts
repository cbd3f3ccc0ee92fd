/**
 * The CPU lines of the summary block, in iperf3's words and units so a reader
 * of both compares like with like: `CPU Utilization: local/sender X% (Y%u/Z%s),
 * remote/receiver …`, each the process's CPU time ÷ the wall time in percent of
 * one core (iperf3's cpu_util(): 200 % = two cores busy). Then, per side, the
 * share of the whole PC and each native data thread's share of one core: one
 * thread near 100 % is a CPU limit even when the PC as a whole looks idle.
 */
import type { CpuUse, LonghaulResult, Side } from '../contract/result.js';
import { partnerLabel } from '../contract/partner-label.js';

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** `X% (Y%u/Z%s)` as iperf3 prints it: total, user and system, each in percent of one core. */
function formatCpuUse(c: CpuUse): string {
  const one = (s: number): number => (c.wallSeconds > 0 ? s / c.wallSeconds : 0);
  return `${pct(c.shareOfOneCore)} (${pct(one(c.userSeconds))}u/${pct(one(c.systemSeconds))}s)`;
}

/** What one side did in this run: sender, receiver, or both (bidir). */
function roleOf(r: LonghaulResult, side: Side): string {
  const sends = r.streams.some((s) => s.sender === side);
  const receives = r.streams.some((s) => s.sender !== side);
  return sends && receives ? 'both' : sends ? 'sender' : 'receiver';
}

/**
 * How busy the PC's cores were over the transfer (what no process or thread figure shows: the kernel's
 * packet processing, the other end on the same PC, other programs), and whether both ends ran on it.
 */
function pcBusyLine(r: LonghaulResult): string | null {
  const cpu = r.cpu;
  if (!cpu) return null;
  const one = cpu.samePc === true;
  const parts = (['controller', 'responder'] as Side[]).flatMap((side) => {
    const pc = cpu[side]?.pc;
    if (pc === undefined) return [];
    if (pc === null) return [`${side}'s PC unknown (its OS did not say)`];
    const irq = pc.interruptShare !== null ? `, interrupts and softirq ${pct(pc.interruptShare)}` : '';
    const steal = pc.stealShare ? `, stolen by the hypervisor ${pct(pc.stealShare)}` : '';
    return [`${one ? 'this PC' : `${side}'s PC`} ${pct(pc.busyShare)} busy${irq}${steal}`];
  });
  if (one && parts.length > 1) parts.splice(1); // one PC, counted twice over nearly the same span
  const where = one ? 'both ends ran on this PC' : cpu.samePc === false ? 'the ends ran on different PCs (or network namespaces)' : null;
  if (!parts.length && !where) return null;
  return `  all cores: ${parts.length ? parts.join('; ') : 'not measured'}${where ? ` (${where})` : ''}`;
}

/** Why a side has no per-thread CPU: how its bytes moved says which (a native loop on an OS that gave no thread times). */
function noThreadsWhy(r: LonghaulResult, side: Side): string {
  const ios = r.streams
    .flatMap((s) => [s.send, s.receive])
    .filter((v) => v?.side === side)
    .map((v) => v?.io);
  if (ios.includes('native')) return "its OS did not give the data threads' CPU time";
  if (ios.includes('node')) return 'Node moved the bytes: there were no data threads';
  return `${side === r.writtenBy ? `this ${side}` : partnerLabel(side, r[side])} does not say`;
}

/** The CPU lines, or none when the result carries no CPU figures (older results). */
export function formatCpuLines(r: LonghaulResult): string[] {
  if (!r.cpu) return [];
  const local = r.writtenBy;
  const remote: Side = local === 'controller' ? 'responder' : 'controller';
  const part = (where: string, side: Side): string => {
    const c = r.cpu?.[side];
    return `${where}/${roleOf(r, side)} ${c ? formatCpuUse(c) : `unknown (${side === local ? `this ${side}` : partnerLabel(side, r[side])} sent no CPU figures)`}`;
  };
  const lines = [`CPU Utilization: ${part('local', local)}, ${part('remote', remote)} (percent of one core, as iperf3 counts)`];
  for (const side of [local, remote]) {
    const c = r.cpu[side];
    if (!c) continue;
    const threads = c.threads
      ? c.threads
          .map((t) => `${t.kind} thread (stream${t.streams.length === 1 ? '' : 's'} ${t.streams.join(', ')}) ${pct(t.shareOfOneCore)} of one core`)
          .join('; ')
      : `none measured (${noThreadsWhy(r, side)})`;
    const pc = c.coresKnown === false ? 'share of the PC unknown (it did not say how many cores it has)' : `${pct(c.shareOfPc)} of the PC's ${c.cores} cores`;
    lines.push(`  ${side}: ${pc}; data threads: ${threads}`);
  }
  const busy = pcBusyLine(r);
  if (busy) lines.push(busy);
  return lines;
}
