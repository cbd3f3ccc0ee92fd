/**
 * Runs a sweep: every (cell, repeat) the file still owes, in the plan's order,
 * one at a time against one `RunTarget`, with the plan's pause between runs.
 * After every run the whole file (and the CSV) is rewritten atomically, so
 * whatever happens next (stop, crash, the partner gone) every finished run is
 * on disk and `resume` picks up from there.
 *
 *   idle ──start()──▶ running ──run saved, more owed──▶ pausing ──pause over──▶ running
 *                        │  └──nothing owed──▶ done                │
 *                        └──stop(), partner gone, file error──▶ stopping ◀──stop()──┘
 *                                                                  └──▶ stopped
 *
 * A stop during a run stops that run (its partial result is recorded as
 * `partial`); during a pause it ends the pause. The sweep also stops by itself
 * after `maxConsecutiveFailures` runs in a row fail for a reason that is not
 * the cell's own settings: the partner is gone, and every further attempt
 * would only cost a connection timeout and clutter the file. Resume is cheap.
 */
import { EventEmitter } from 'node:events';
import type { ErrorInfo } from '../contract/result.js';
import type { SweepFile, SweepProgress, SweepRunRecord, SweepState } from '../contract/sweep.js';
import { expandPlan, pendingRuns, type SweepRunKey } from '../contract/sweep-plan.js';
import type { RunHandle } from '../engine/session/run-handle.js';
import { keepsForSweep, measuredFor, pathOf, withCapacity } from '../contract/sweep-capacity.js';
import { describeError, LonghaulError } from '../util/errors.js';
import type { RunTarget } from './run-target.js';
import { recordOfFailure, recordOfResult } from './run-record.js';
import { saveSweepCsv } from './sweep-csv.js';
import { saveSweepFile, withRun } from './sweep-file.js';
import { itemAt } from '../contract/present.js';

/**
 * Two: one failure is tolerated (a responder still closing the previous session,
 * a blip), the second in a row across a pause means the partner is gone. Against
 * a vanished host each further attempt costs a connection timeout, and a resume
 * later loses nothing.
 */
const DEFAULT_MAX_CONSECUTIVE_FAILURES = 2;

/** Failures that say something about the cell's settings, not about the partner: they never stop a sweep. */
const CELL_ERRORS = new Set(['LH_ERR_PARAMS_REJECTED', 'LH_ERR_BAD_ARGUMENT']);

const TRANSITIONS: Record<SweepState, readonly SweepState[]> = {
  idle: ['running', 'stopping'],
  running: ['pausing', 'stopping', 'done'],
  pausing: ['running', 'stopping'],
  stopping: ['stopped'],
  done: [],
  stopped: [],
};

interface SweepRunnerOptions {
  /** A new sweep (`newSweepFile(plan)`) or one read back for a resume (`readSweepFile`). */
  file: SweepFile;
  /** Where the sweep's JSON goes, rewritten after every run. */
  jsonPath: string;
  /** The sweep's CSV (one row per run, one per cell), rewritten after every run; null: none. */
  csvPath?: string | null;
  target: RunTarget;
  maxConsecutiveFailures?: number;
}

interface SweepRunnerEvents {
  progress: [SweepProgress];
  state: [SweepState];
  /** The run in flight, for live displays (its `sample` events; `capacity` when it measures the path). */
  run: [RunHandle];
}

export class SweepRunner extends EventEmitter<SweepRunnerEvents> {
  private current: SweepFile;
  private now: SweepState = 'idle';
  private runAbort: AbortController | null = null;
  private endPause: (() => void) | null = null;
  private stopReason: 'asked' | 'partner-gone' | 'error' | null = null;
  private stopError: ErrorInfo | null = null;

  constructor(private readonly o: SweepRunnerOptions) {
    super();
    this.current = o.file;
  }

  get state(): SweepState {
    return this.now;
  }

  /** The file as last written (or as given, before the first run). */
  get file(): SweepFile {
    return this.current;
  }

  /** The runs this session will make, in order. */
  get queue(): SweepRunKey[] {
    return pendingRuns(this.current.plan, this.current.runs);
  }

  /**
   * Run what the file still owes. Resolves with the final file once done or
   * stopped (see `state`); never rejects: a failure to write the file or to open
   * the target stops the sweep with reason `error`.
   */
  async start(): Promise<SweepFile> {
    if (this.now !== 'idle') throw new LonghaulError('LH_ERR_BUSY', `this sweep already ran (state ${this.now}); make a new runner to resume it`);
    this.to('running');
    const cells = expandPlan(this.current.plan);
    const queue = this.queue;
    let failures = 0;
    try {
      this.save(); // before any traffic: a path that cannot be written fails now
      if (queue.length) await this.o.target.open();
      for (const [i, key] of queue.entries()) {
        if (i > 0 && !(await this.pause())) break;
        if (this.stopReason) break;
        const record = await this.runOne(key, itemAt(cells, key.cell, 'sweep cell').settings, { position: i + 1, total: queue.length });
        this.current = withRun(this.current, record);
        this.save();
        this.emit('progress', {
          kind: 'run-done',
          run: headline(record),
          cellSummary: itemAt(this.current.cells, key.cell, 'cell summary'),
          position: i + 1,
          total: queue.length,
        });
        failures = record.status !== 'done' && !this.stopReason && !CELL_ERRORS.has(record.error?.code ?? '') ? failures + 1 : 0;
        if (failures >= (this.o.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES)) {
          this.halt('partner-gone', {
            code: record.error?.code ?? 'LH_ERR_PEER_GONE',
            message: `${failures} runs in a row failed (last: ${record.error?.message ?? 'unknown'}); stopped. Resume when the partner is back`,
          });
        }
        if (this.stopReason) break;
      }
    } catch (err) {
      this.halt('error', describeError(err));
    } finally {
      await this.o.target.close().catch(() => {});
    }
    const runs = this.current.runs.length;
    if (this.stopReason) {
      if (this.state !== 'stopping') this.to('stopping');
      this.to('stopped');
      this.emit('progress', { kind: 'stopped', file: this.o.jsonPath, runs, reason: this.stopReason ?? 'asked', error: this.stopError });
    } else {
      this.to('done');
      this.emit('progress', { kind: 'done', file: this.o.jsonPath, runs, complete: this.current.complete });
    }
    return this.current;
  }

  /** Stop: the run in flight ends (recorded as partial), a pause ends, nothing more starts. Safe any time, twice. */
  stop(): void {
    this.halt('asked', null);
  }

  private halt(reason: 'asked' | 'partner-gone' | 'error', error: ErrorInfo | null): void {
    if (this.stopReason || this.now === 'done' || this.now === 'stopped') return;
    this.stopReason = reason;
    this.stopError = error;
    if (this.now !== 'idle') this.to('stopping');
    this.runAbort?.abort();
    this.endPause?.();
  }

  private async runOne(key: SweepRunKey, settings: SweepRunRecord['settings'], at: { position: number; total: number }): Promise<SweepRunRecord> {
    const sequence = this.current.runs.reduce((n, r) => Math.max(n, r.sequence + 1), 0);
    this.emit('progress', { kind: 'run-start', ...key, settings, ...at });
    const startedAt = new Date();
    this.runAbort = new AbortController();
    try {
      const known = this.current.plan.capacity ? measuredFor(this.current, settings) : null;
      const ask = !this.current.plan.capacity ? null : known ? { known: known.info } : { measure: true as const };
      const result = await this.o.target.run(settings, this.runAbort.signal, ask, (run) => {
        run.on('capacity', (capacity) => this.emit('progress', { kind: 'capacity', capacity }));
        this.emit('run', run);
      });
      // The first run over a path measured it: every later run over that path (and a resume) is judged against it.
      if (ask && 'measure' in ask && result.capacity && keepsForSweep(result.capacity)) {
        const entry = { ...pathOf(settings), sequence, info: result.capacity };
        this.current = withCapacity(this.current, entry);
        this.emit('progress', { kind: 'path-measured', entry });
      }
      return recordOfResult(key, sequence, settings, result);
    } catch (err) {
      return recordOfFailure(key, sequence, settings, startedAt, describeError(err));
    } finally {
      this.runAbort = null;
    }
  }

  /** The pause between runs; false when a stop ended it. */
  private async pause(): Promise<boolean> {
    const seconds = this.current.plan.pauseSeconds;
    if (this.stopReason) return false;
    this.to('pausing');
    this.emit('progress', { kind: 'paused', seconds });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, seconds * 1000);
      this.endPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.endPause = null;
    if (this.stopReason) return false;
    this.to('running');
    return true;
  }

  private save(): void {
    saveSweepFile(this.o.jsonPath, this.current);
    if (this.o.csvPath) saveSweepCsv(this.o.csvPath, this.current);
  }

  private to(next: SweepState): void {
    if (!TRANSITIONS[this.now].includes(next)) throw new Error(`sweep state ${this.now} cannot go to ${next}`);
    this.now = next;
    this.emit('state', next);
  }
}

/** The record without its embedded result (progress events travel over IPC). */
export function headline(r: SweepRunRecord): Omit<SweepRunRecord, 'result'> {
  const { result: _result, ...rest } = r;
  return rest;
}
