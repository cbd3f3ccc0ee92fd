/**
 * The app's Schedules screen (issue 39, docs/schedules.md): what the main process tells the
 * renderer about the kept schedules, and what the renderer may ask. The plans themselves are
 * `SchedulePlan`s (schedule.ts), the same files `longhaul schedule` keeps.
 */
import type { LimiterVerdict } from './result.js';
import type { PlanProblem, ScheduleLastRun, SchedulePlan } from './schedule.js';

/**
 * A schedule as the screen lists it. `state`: `running` (its tests come at their slots), `paused`,
 * `broken` (its file cannot be used and no earlier version is running), `not-run` (another process
 * runs this PC's schedules: `ScheduleListing.runner` says which).
 */
export interface ScheduleView {
  name: string;
  file: string;
  /** The plan in force: the file's, or while the file is broken, the last accepted one (`problem` set); null when neither. */
  plan: SchedulePlan | null;
  problem: PlanProblem | null;
  state: 'running' | 'paused' | 'broken' | 'not-run';
  /** When the next round is due (epoch ms), when known. */
  nextAtMs: number | null;
  /** The peer under test now (`host:port`), or null. */
  testing: string | null;
  /** The last test of each of the plan's peers that has run (in the plan's order). */
  lastRuns: ScheduleLastRun[];
}

export interface ScheduleListing {
  schedules: ScheduleView[];
  /** Where the plans are kept. */
  dir: string;
  /** Null while this app runs the schedules; otherwise why it does not (another runner holds this PC's). */
  notRunning: string | null;
}

/** Something a user should hear about without watching the screen (a notification). */
export interface ScheduleNotice {
  name: string;
  peer: string;
  /** `not-saved`: a test measured, its result could not be written (a full disk): the metric of failed saves rises too. */
  kind: 'failed' | 'verdict-changed' | 'not-saved';
  /** `failed`: the error code; `verdict-changed`: the verdicts before and now. */
  code: string | null;
  before: LimiterVerdict[];
  now: LimiterVerdict[];
  resultId: string | null;
  /** `not-saved`: why (the OS's words). */
  saveError: string | null;
}

export interface SaveScheduleRequest {
  /** The plan as the form made it; checked by the plans' one rule (a refusal names the field). */
  plan: unknown;
  /** Replacing the plan of this name (an edit; a rename removes the old one once the new is kept). */
  editing: string | null;
}
