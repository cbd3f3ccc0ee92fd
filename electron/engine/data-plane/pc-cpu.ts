/**
 * The whole PC's CPU over a span: how busy all its cores were, from two readings of the OS's
 * per-CPU counters. The kernel's copying and packet processing (softirq) is charged to no thread,
 * so only the PC's own counters show it (docs/measurements.md#pc-busy).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { PcCpu } from '../../contract/result.js';

/** Cumulative time of all cores, in the OS's ticks (any unit: only ratios of differences are used). */
export interface PcCpuTimes {
  busy: number;
  total: number;
  /** irq + softirq; null where the OS does not count it apart. */
  interrupt: number | null;
  steal: number | null;
  source: PcCpu['source'];
}

/**
 * The aggregate `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal guest guest_nice.
 * guest and guest_nice are already counted in user and nice, so they are left out. Null when absent or short.
 */
export function parseProcStat(text: string): PcCpuTimes | null {
  const line = text.split('\n').find((l) => /^cpu\s/.test(l));
  if (!line) return null;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  if (f.length < 7 || f.some((x) => !Number.isFinite(x))) return null;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = f;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait, interrupt: irq + softirq, steal: f.length >= 8 ? steal : null, source: 'proc-stat' };
}

/** os.cpus() summed over the cores (no softirq or steal there: macOS, Windows). */
function fromOsCpus(): PcCpuTimes | null {
  const cpus = os.cpus();
  if (cpus.length === 0) return null;
  let busy = 0;
  let idle = 0;
  for (const { times: t } of cpus) {
    busy += t.user + t.nice + t.sys + t.irq;
    idle += t.idle;
  }
  return { busy, total: busy + idle, interrupt: null, steal: null, source: 'os-cpus' };
}

/** This PC's cumulative CPU times now; null when the OS does not give them. */
export function readPcCpuTimes(): PcCpuTimes | null {
  if (process.platform === 'linux') {
    try {
      return parseProcStat(readFileSync('/proc/stat', 'utf8'));
    } catch {
      return fromOsCpus();
    }
  }
  return fromOsCpus();
}

/** The PC's busy share between two readings; null when either is missing, of different sources, or no time passed. */
export function pcCpuBetween(a: PcCpuTimes | null, b: PcCpuTimes | null): PcCpu | null {
  if (!a || !b || a.source !== b.source) return null;
  const total = b.total - a.total;
  if (!(total > 0)) return null;
  const part = (x: number | null, y: number | null): number | null => (x === null || y === null ? null : Math.min(1, Math.max(0, (y - x) / total)));
  return {
    busyShare: Math.min(1, Math.max(0, (b.busy - a.busy) / total)),
    interruptShare: part(a.interrupt, b.interrupt),
    stealShare: part(a.steal, b.steal),
    source: a.source,
  };
}
