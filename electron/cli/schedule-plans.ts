/**
 * `longhaul schedule list` and `show`: the kept plans as a table (when, peers, test, paused or when
 * the next round is due) and one plan's file; a broken file is named with its line and reason.
 */
import { readFile } from 'node:fs/promises';
import type { SchedulePlan } from '../contract/schedule.js';
import { formatRate } from '../contract/units.js';
import { planStatus } from '../schedule/plan-runner.js';
import { badPlanFile, type PlanStore } from '../schedule/plan-store.js';
import { printable } from '../util/printable.js';
import { whenText } from './schedule-log.js';

/** The test a plan runs, in the run flags' words: `TCP, 2 streams, 10 s, -R, --capacity`. */
function testText(plan: SchedulePlan): string {
  const t = plan.test;
  const parts = [
    t.protocol === 'udp' ? `UDP ${formatRate(t.bitrateBitsPerSec ?? null)} per stream` : 'TCP',
    `${t.streams} stream${t.streams === 1 ? '' : 's'}`,
    `${t.seconds ?? '?'} s`,
  ];
  if (t.direction === 'reverse') parts.push('-R');
  if (t.direction === 'bidir') parts.push('--bidir');
  if (plan.capacity) parts.push('--capacity');
  return parts.join(', ');
}

/** In how long, as a person says it. */
function inText(ms: number): string {
  if (ms <= 0) return 'due now';
  const s = Math.round(ms / 1000);
  if (s < 120) return `in ${s} s`;
  if (s < 7200) return `in ${Math.round(s / 60)} min`;
  return `in ${(s / 3600).toFixed(1)} h`;
}

export async function listPlans(store: PlanStore): Promise<string> {
  const entries = await store.list();
  if (entries.length === 0) return `No schedules kept yet (${store.dir}). Add one: longhaul schedule add NAME --every 15m PEER\n`;
  const now = Date.now();
  const rows: string[][] = [['NAME', 'WHEN', 'PEERS', 'TEST', 'STATE']];
  for (const e of entries) {
    if (!e.plan) {
      rows.push([e.name, '-', '-', '-', `BROKEN: line ${e.problem.line}: ${printable(e.problem.reason)}`]);
      continue;
    }
    const next = e.plan.paused ? null : (await planStatus(e.plan, store.resultsDir, now)).next;
    const state = e.plan.paused
      ? 'paused'
      : next
        ? `next round ${new Date(next.atMs).toISOString().slice(0, 19)}Z (${inText(next.atMs - now)}, when running)`
        : 'no date left';
    rows.push([e.name, whenText(e.plan), e.plan.peers.join(' '), testText(e.plan), state]);
  }
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')).join('\n') + `\n\nPlans: ${store.dir}\n`;
}

export async function showPlan(store: PlanStore, name: string): Promise<string> {
  const e = await store.read(name);
  if (!e.plan) {
    const text = await readFile(e.file, 'utf8').catch(() => '');
    const line = text.split('\n')[e.problem.line - 1];
    const where = line !== undefined ? `\n  ${e.problem.line} | ${printable(line)}\n` : '\n';
    throw badPlanFile(e.file, e.problem, where);
  }
  return `# ${e.file}\n# ${whenText(e.plan)}; ${testText(e.plan)}${e.plan.paused ? '; paused' : ''}\n${JSON.stringify(e.plan, null, 2)}\n`;
}
