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
  /** The app's /metrics for Prometheus: the setting and whether it serves. */
  metrics: MetricsView;
}

/**
 * The app's setting to serve /metrics (OpenMetrics) for Prometheus, as `longhaul schedule --metrics`
 * does: served while this app runs the PC's schedules. `listen`: `local` is 127.0.0.1 only (a
 * Prometheus on this PC); `network` every address of this PC, asked for on purpose (the figures name
 * the peers and their rates; there is no password on /metrics).
 */
export interface MetricsSetting {
  enabled: boolean;
  listen: 'local' | 'network';
  port: number;
}

/** Off; when turned on, 127.0.0.1 and the port docs/schedules.md uses for `--metrics`. */
export const DEFAULT_METRICS_SETTING: MetricsSetting = { enabled: false, listen: 'local', port: 9464 };

export interface MetricsView {
  setting: MetricsSetting;
  /** Where /metrics is served now (http://127.0.0.1:9464/metrics), or null. */
  url: string | null;
  /** Why it is not served although enabled (the port is taken, another process runs the schedules), or why the kept setting could not be read; null otherwise. */
  problem: string | null;
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
