/**
 * cgroup v1 groups for tests (Linux, root): a `cpu` group with a CFS quota, and
 * `cpuacct` groups whose usage is the kernel's own count of a process tree's CPU
 * time, to check Longhaul's figures against. Children forked after a process
 * joins a group are in it too (the data workers). Each group is removed by
 * `remove()`, which first hands any task still in it back to the root group.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = '/sys/fs/cgroup';

/** Why cgroup tests cannot run here, or null when they can. */
export function cgroupSkipReason(): string | null {
  if (process.platform !== 'linux') return 'cgroups are Linux only';
  if (process.getuid?.() !== 0) return 'moving processes between cgroups needs root';
  for (const c of ['cpu', 'cpuacct']) if (!existsSync(path.join(ROOT, c, 'tasks'))) return `the cgroup v1 ${c} controller is not mounted at ${ROOT}/${c}`;
  return null;
}

export class TestCgroup {
  readonly dir: string;

  constructor(
    readonly controller: 'cpu' | 'cpuacct',
    name: string,
  ) {
    this.dir = path.join(ROOT, controller, name);
    mkdirSync(this.dir);
  }

  /** cpu: allow `share` of one core (cpu.cfs_quota_us = share × cpu.cfs_period_us). */
  limit(share: number): void {
    const period = Number(readFileSync(path.join(this.dir, 'cpu.cfs_period_us'), 'utf8'));
    writeFileSync(path.join(this.dir, 'cpu.cfs_quota_us'), String(Math.round(period * share)));
  }

  /** Move process `pid` (all its threads) into the group. */
  add(pid: number): void {
    writeFileSync(path.join(this.dir, 'cgroup.procs'), String(pid));
  }

  /** cpuacct: CPU time of every task in the group since it joined, seconds. */
  usageSeconds(): number {
    return Number(readFileSync(path.join(this.dir, 'cpuacct.usage'), 'utf8')) / 1e9;
  }

  /** cpu: how many CFS periods the quota throttled the group. */
  throttledPeriods(): number {
    return Number(/nr_throttled (\d+)/.exec(readFileSync(path.join(this.dir, 'cpu.stat'), 'utf8'))?.[1] ?? 0);
  }

  /** Hand any remaining task back to the root group and remove the group. Safe to call twice. */
  remove(): void {
    if (!existsSync(this.dir)) return;
    const tasks = readFileSync(path.join(this.dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
    for (const pid of tasks) {
      try {
        writeFileSync(path.join(ROOT, this.controller, 'cgroup.procs'), pid);
      } catch {
        // gone meanwhile
      }
    }
    rmdirSync(this.dir);
  }
}
