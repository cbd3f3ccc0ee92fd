/**
 * `longhaul.sweep/1`: a run plan over several settings, every run it made, and
 * a summary per cell. Written after every run (so an interrupted sweep keeps
 * every finished run) and read back by `longhaul sweep --resume`. Documented
 * in docs/sweeps.md. Pure types (no Node imports) so the renderer can share them;
 * the pure rules over them (expansion, order, summaries) are in sweep-plan.ts.
 *
 * Conventions are those of `longhaul.result/1`: bytes, seconds, bits per second;
 * `null` for a window or an MSS means "the OS's own".
 */
import type { LinkSettingsInfo } from './link-info.js';
import type { Direction, ErrorInfo, LimiterVerdict, LonghaulResult, ResultParams } from './result.js';
import type { CapacityInfo, CapacityProgress } from './capacity-info.js';

export const SWEEP_SCHEMA = 'longhaul.sweep/1' as const;

/** Where the runs go: a paired responder, or a responder this PC starts for itself on 127.0.0.1. */
export type SweepTarget = { kind: 'peer'; host: string; port: number } | { kind: 'loopback' };

/** `relay`: through a plain `longhaul proxy` on this PC (no impairment), so the relay's cost shows next to `direct`. */
export type SweepPath = 'direct' | 'relay';

/** Runs in plan order, or each repeat round in a fresh seeded random order (the default: docs/sweeps.md). */
export type SweepOrder = 'shuffled' | 'sequential';

/**
 * One swept setting and its values, in the order given. `windowBytes` and `mssBytes`
 * take null for the OS default; `link` is a link preset name or null (no emulator),
 * loopback targets only.
 */
export type SweepDimension =
  | { name: 'windowBytes'; values: (number | null)[] }
  | { name: 'bufferBytes'; values: number[] }
  | { name: 'streams'; values: number[] }
  | { name: 'mssBytes'; values: (number | null)[] }
  | { name: 'direction'; values: Direction[] }
  | { name: 'link'; values: (string | null)[] }
  | { name: 'path'; values: SweepPath[] };

export type SweepDimensionName = SweepDimension['name'];

export interface SweepPlan {
  target: SweepTarget;
  /** The parameters every run starts from; a cell overrides the swept ones. */
  base: ResultParams;
  /** Outermost first: the last dimension changes fastest in the cell numbering. Empty: one cell. */
  dimensions: SweepDimension[];
  /** Runs per cell (default 3). */
  repeat: number;
  /** Idle time between two runs, s (lets queues drain and the partner's sockets close). */
  pauseSeconds: number;
  order: SweepOrder;
  /** Seeds the shuffle (uint32): the same plan and seed give the same order, so a resume reproduces it. */
  seed: number;
  /**
   * Measure the path (`--capacity`, "Measure the path"): once per path the cells use (link preset, path and
   * measured direction), by the first run over it; every later run over that path is judged against the same
   * figure. Absent in plans made before it: false.
   */
  capacity?: boolean;
}

/** A path measured for a sweep with `capacity`: one per link preset, path and measured direction its cells use. */
export interface SweepCapacity {
  link: string | null;
  path: SweepPath;
  /** The direction the tuned run measured (a bidir cell is measured forward, as `--capacity` does). */
  direction: CapacityInfo['direction'];
  /** The run whose tuned run measured it. */
  sequence: number;
  info: CapacityInfo;
}

/** One cell's complete settings: the base parameters with the cell's values, and how the bytes travel. */
export interface SweepCellSettings {
  params: ResultParams;
  /** Link preset the run goes through, or null (no emulator). */
  link: string | null;
  /** The link's own numbers where they are not (only) a preset's (`loopback --udp-ramp` with link flags): the proxy runs these; `link` names the preset they started from, or null. */
  linkSettings?: LinkSettingsInfo;
  path: SweepPath;
}

export interface SweepCell {
  /** 0-based, mixed-radix over the dimensions (last dimension fastest). */
  index: number;
  settings: SweepCellSettings;
  /** The cell's value of each dimension, keyed by dimension name, for labels and CSV columns. */
  values: Partial<Record<SweepDimensionName, number | string | null>>;
}

/** `done`: a complete run; `partial`: it measured but was cut short (stopped, a stream broke); `failed`: nothing usable. */
export type SweepRunStatus = 'done' | 'partial' | 'failed';

/** A run's headline: what a table row and a progress line need, without the full result. */
export interface SweepRunHeadline {
  cell: number;
  /** 0-based repeat index within the cell. */
  repeat: number;
  /** Position in the order the runs really happened, over the whole sweep (resumes continue it). */
  sequence: number;
  settings: SweepCellSettings;
  status: SweepRunStatus;
  /** ISO 8601 UTC. */
  startedAt: string;
  endedAt: string;
  /** Wall-clock aggregate (result.total.bitsPerSecond); null when nothing was measured. */
  bitsPerSecond: number | null;
  /** Per-stream sum (result.total.streamSumBitsPerSecond), the PetaBumps convention. */
  streamSumBitsPerSecond: number | null;
  /** The diagnosis verdict of each direction (usually one). */
  verdicts: LimiterVerdict[];
  /** The first error of a failed or partial run. */
  error: ErrorInfo | null;
}

/** One run as kept in the file: its headline and its whole `longhaul.result/1` (null when the run never started: no result exists). */
export interface SweepRunRecord extends SweepRunHeadline {
  result: LonghaulResult | null;
}

export interface SweepStats {
  median: number;
  min: number;
  max: number;
}

export interface SweepCellSummary {
  cell: number;
  settings: SweepCellSettings;
  values: SweepCell['values'];
  /** Runs counted in the figures: those with status `done` (partial and failed runs are kept but not counted). */
  runs: number;
  /** Runs the plan wants (its `repeat`). */
  planned: number;
  /** Null when no run of the cell is done. */
  bitsPerSecond: SweepStats | null;
  streamSumBitsPerSecond: SweepStats | null;
  /** How many counted runs had each verdict (a bidir run counts once per direction). */
  verdicts: Partial<Record<LimiterVerdict, number>>;
}

export interface SweepFile {
  schema: typeof SWEEP_SCHEMA;
  /** Random, stable across resumes: history lists sweeps by it. */
  id: string;
  /** Short human label, e.g. `127.0.0.1 loopback: windowBytes × bufferBytes`. */
  title: string;
  software: string;
  /** ISO 8601 UTC: when the sweep first started, and when this file was last written. */
  startedAt: string;
  updatedAt: string;
  /** True once every (cell, repeat) of the plan has a `done` run. */
  complete: boolean;
  plan: SweepPlan;
  /** Every run in the order it happened, failed and partial ones included. */
  runs: SweepRunRecord[];
  /** One per cell, recomputed from `runs` at every write. */
  cells: SweepCellSummary[];
  /** The paths measured so far (plan.capacity); absent or empty when none was. */
  capacity?: SweepCapacity[];
}

/** The runner's states (electron/sweep/sweep-runner.ts): idle → running ⇄ pausing → stopping → done | stopped. */
export type SweepState = 'idle' | 'running' | 'pausing' | 'stopping' | 'done' | 'stopped';

/** Where a run stands in this session's queue: `position` of `total` (1-based). */
interface SweepQueuePosition {
  position: number;
  total: number;
}

/** What a sweep reports as it goes (the CLI prints it, the app forwards it to the renderer). */
export type SweepProgress =
  | ({ kind: 'run-start'; cell: number; repeat: number; settings: SweepCellSettings } & SweepQueuePosition)
  | ({ kind: 'run-done'; run: SweepRunHeadline; cellSummary: SweepCellSummary } & SweepQueuePosition)
  /** The run in flight measures its path (plan.capacity): its tuned run began, or ended with a figure. */
  | { kind: 'capacity'; capacity: CapacityProgress }
  /** A path measured, kept for the rest of the sweep (SweepFile.capacity). */
  | { kind: 'path-measured'; entry: SweepCapacity }
  /** Between two runs: the next run starts after `seconds`. */
  | { kind: 'paused'; seconds: number }
  /** Every run of the queue was made; `complete`: each (cell, repeat) has a `done` run (false when some failed: resume retries them). */
  | { kind: 'done'; file: string; runs: number; complete: boolean }
  /** Stopped before the end: asked to, the partner gone, or the file could not be written. `error` says why when it was not asked for. */
  | { kind: 'stopped'; file: string; runs: number; reason: 'asked' | 'partner-gone' | 'error'; error: ErrorInfo | null };
