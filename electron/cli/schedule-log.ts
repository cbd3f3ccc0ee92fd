/**
 * What `longhaul schedule` prints while schedules run: one line per event, each starting with the
 * schedule's name when more than one runs, a test's line carrying its one answer (or why it failed).
 */
import { answerOf } from '../contract/answer-text.js';
import type { SchedulePlan } from '../contract/schedule.js';
import type { PlanRunnerEvent } from '../schedule/plan-runner.js';
import { peerLabel } from '../schedule/schedule-metrics.js';
import type { ScheduleEvent } from '../schedule/scheduler.js';
import { printable } from '../util/printable.js';

/** A plan's "when" as a person says it: every 20 s, every 15 min, at "0 * * * *" (cron). */
export function whenText(plan: Pick<SchedulePlan, 'every' | 'cron'>): string {
  return plan.cron !== undefined ? `at "${plan.cron}" (cron, this PC's time)` : `every ${plan.every ?? ''}`;
}

/** One line for an event, or null for one that says nothing to a terminal. `many`: more than one schedule may run (lines start with the name). */
export function runnerLine(e: PlanRunnerEvent, many: boolean): string | null {
  const who = many ? `[${e.name}] ` : '';
  switch (e.kind) {
    case 'started': {
      const p = e.plan;
      const resumed = e.resumedAfter !== null ? `; resuming after slot ${e.resumedAfter}` : '';
      const kept = e.kept ? ' (the last accepted version: its file is broken, see above)' : '';
      const note = e.note ? `\n${who}${printable(e.note)}` : '';
      return `${who}Schedule "${p.name}"${kept}: ${p.peers.join(', ')} ${whenText(p)}, one test at a time${resumed}${note}`;
    }
    case 'stopped':
      return `${who}Schedule "${e.name}" ${{ paused: 'paused', deleted: 'deleted: stopped', edited: 'edited: starting again as edited', ended: 'ended' }[e.why]}`;
    case 'problem':
      return `${who}${e.file}:${e.problem.line}:${e.problem.column}: ${printable(e.problem.reason)} — ${e.kept ? 'the schedule goes on as it was until the file is fixed' : 'not run until the file is fixed'}`;
    case 'fixed':
      return `${who}${e.file} can be used again`;
    case 'state-not-kept':
      return `${who}The schedule's state could not be kept in ${e.file} (${printable(e.reason)}): a restart may run a slot again`;
    case 'schedule':
      return eventLine(e.event, who);
  }
}

function eventLine(e: ScheduleEvent, who: string): string | null {
  switch (e.kind) {
    case 'waiting':
      return `${who}Next round (slot ${e.slot}) at ${new Date(e.atMs).toISOString()}`;
    case 'queued':
      return `${who}${peerLabel(e.peer)} waits its turn: ${printable(e.ahead)} is running on this PC`;
    case 'testing':
      return null;
    case 'no-more-slots':
      return `${who}The cron line has no date left: the schedule ends`;
    case 'busy':
      return `${who}${peerLabel(e.peer)} is busy with another controller: trying again in ${Math.round(e.retryInMs / 1000)} s (try ${e.tries + 1})`;
    case 'run': {
      const r = e.record;
      const answer = e.result && e.result.total.bytes > 0 ? printable(answerOf(e.result, 'terminal').results.join('; ')) : `failed: ${r.code ?? 'unknown'}`;
      const saved = r.savedPath ? '' : r.saveError ? ` (NOT SAVED: ${printable(r.saveError)})` : '';
      return `${who}${r.endedAt} slot ${r.slot} ${peerLabel(r.peer)}: ${answer}${r.outcome === 'partial' ? ' (partial)' : ''}${saved}`;
    }
  }
}
