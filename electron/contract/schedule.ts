/**
 * Schedules (issue 39, docs/schedules.md): the same test against one or more paired peers, one
 * round every interval, never two tests at once. Pure types: the slot rules are
 * schedule/slots.ts, the runner schedule/scheduler.ts, the metrics schedule/schedule-metrics.ts.
 */
import type { LimiterVerdict, ResultParams } from './result.js';

/** A peer of a schedule, as the user named it: its label in metrics and reports is `host:port`, never the peer's own words. */
export interface SchedulePeer {
  host: string;
  port: number;
}

/** What a scheduled test did, for the log, the metrics and the app. */
type ScheduleRunOutcome = 'ok' | 'partial' | 'failed';

/** One test of a round, as the scheduler reports it. */
export interface ScheduleRunRecord {
  schedule: string;
  /** The slot's number: whole intervals since 1970-01-01 plus the schedule's offset (schedule/slots.ts). */
  slot: number;
  peer: SchedulePeer;
  startedAt: string;
  endedAt: string;
  outcome: ScheduleRunOutcome;
  /** A failed or partial run's error code (LH_ERR_*), null when complete. */
  code: string | null;
  /** Where the result was saved (History), or null (a failed start, or a save that failed: `saveError`). */
  savedPath: string | null;
  saveError: string | null;
  /** Tries it took: a busy peer is tried again with back-off within the slot. */
  tries: number;
}

/** The format of a schedule's plan file, `<data dir>/results/schedules/<name>.plan.json` (docs/schedules.md). */
export const SCHEDULE_PLAN_SCHEMA = 'longhaul.schedule/1';

/**
 * A named schedule as it is kept, edited by hand or by the app, and run: exactly one of `every`
 * (a duration, "15m") or `cron` (five fields, local time). `test` is the run's parameters (RunParams);
 * fields left out take the defaults of `longhaul run`.
 */
export interface SchedulePlan {
  schema: typeof SCHEDULE_PLAN_SCHEMA;
  name: string;
  every?: string;
  cron?: string;
  /** `host:port` of each paired responder, in the order a round tests them. */
  peers: string[];
  test: ResultParams;
  /** Measure the path after each test (`--capacity`). */
  capacity: boolean;
  paused: boolean;
}

/** Where in a plan file it went wrong: a line (1-based) and the reason, as the user sees it. */
export interface PlanProblem {
  line: number;
  column: number;
  reason: string;
}

/** A peer's last scheduled test, as the screens show it (kept in the schedule's state across restarts). */
export interface ScheduleLastRun {
  /** `host:port`, as the plan names it. */
  peer: string;
  endedAt: string;
  outcome: 'ok' | 'partial' | 'failed';
  /** A failed or partial test's error code, null when complete. */
  code: string | null;
  /** The wall-clock aggregate, payload bits per second (decimal); null when nothing was measured. */
  bitsPerSecond: number | null;
  /** Each measured direction's verdict (two for bidir); empty when none was given. */
  verdicts: LimiterVerdict[];
  /** The result's id, to open it from History; null when none was saved. */
  resultId: string | null;
  /** Why the result could not be saved, or null. */
  saveError: string | null;
}
