/**
 * The app contract's sweep part: what the Sweep screen and History exchange with the
 * host about sweeps (electron/contract/api.ts names the channels that carry them).
 * Pure types and constants, no Node imports: the renderer shares it.
 */
import type { SweepDimensionName, SweepFile, SweepProgress, SweepRunHeadline, SweepTarget } from './sweep.js';

/**
 * What the app accepts in a sweep plan (the Sweep form checks them as typed,
 * the host's request schema again): longer lists are typos, longer sweeps
 * are better started from the CLI where a closed window cannot end them.
 */
export const SWEEP_LIMITS = { maxValues: 12, maxRuns: 1000, maxRepeat: 50, maxPauseSeconds: 600, minSeconds: 0.5 } as const;

/** Sweep exports: the `longhaul.sweep/1` file itself, one CSV row per run, or the self-contained HTML report. */
export type SweepExportFormat = 'json' | 'csv' | 'html';
export const SWEEP_EXPORT_FORMATS: readonly SweepExportFormat[] = ['json', 'csv', 'html'];

/**
 * A sweep as the Sweep screen draws it: the file without each run's full
 * result (a sweep of 1,000 runs would be megabytes per update; the JSON
 * export has them), plus whether this host is running it now.
 */
export interface SweepView extends Omit<SweepFile, 'runs'> {
  runs: SweepRunHeadline[];
  /** True while this host's runner is working on it (false: complete, or interrupted and resumable). */
  running: boolean;
}

/** A sweep as History lists it. */
export interface SweepEntry {
  id: string;
  title: string;
  startedAt: string;
  updatedAt: string;
  target: SweepTarget['kind'];
  /** `host:port` of a partner's sweep, null on this PC. */
  partner: string | null;
  /** The settings with two or more values, in plan order (what the sweep is about). */
  swept: SweepDimensionName[];
  cells: number;
  /** Runs with status `done`, and the plan's cells × repeats. */
  runsDone: number;
  runsPlanned: number;
  complete: boolean;
  running: boolean;
}

/** A sweep's progress event, with the sweep it belongs to. */
export interface SweepProgressEvent {
  id: string;
  progress: SweepProgress;
}
