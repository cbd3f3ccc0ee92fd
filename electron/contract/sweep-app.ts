/**
 * The app contract's sweep part: what the Sweep screen and History exchange with the
 * host about sweeps (electron/contract/api.ts names the channels that carry them).
 * Pure types and constants, no Node imports: the renderer shares it.
 */
import { MIN_SECONDS } from './limits.js';
import type { SweepDimensionName, SweepFile, SweepProgress, SweepRunHeadline, SweepTarget } from './sweep.js';

/**
 * What a sweep plan may hold, for every door: `longhaul sweep`'s flags, the
 * Sweep screen's form and the one plan schema (sweep/sweep-plan-schema.ts)
 * that both the CLI and the app's host check a plan with. A setting of more
 * than 64 values, or more than 1,000 cells, is a typo; 100 repeats already
 * gives a median of a hundred runs.
 */
export const SWEEP_LIMITS = {
  maxValues: 64,
  maxDimensions: 7,
  maxCells: 1000,
  maxRepeat: 100,
  maxPauseSeconds: 3600,
  /** A sweep's runs are at least a run's shortest (--seconds 0.1). */
  minSeconds: MIN_SECONDS,
} as const;

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
