/**
 * A sweep on screen, brought up to date by its progress events: each
 * `run-done` adds the run's headline and replaces its cell's summary (the
 * runner's, medians included), `run-start` says which run is in flight,
 * `done`/`stopped` end it. Pure: a new view object per event, so a
 * `$state.raw` holder redraws, and the table and chart are testable with
 * fixture events.
 */
import type { SweepView } from '../../../electron/contract/sweep-app.js';
import type { SweepCellSettings, SweepProgress } from '../../../electron/contract/sweep.js';
import { capacityProgressText } from '../../../electron/contract/capacity.js';
import { withCapacity } from '../../../electron/contract/sweep-capacity.js';

/** What is happening right now, for the status line. */
type SweepActivity =
  | { kind: 'idle' }
  /** Started or resumed; the first run (or the local responder) is being set up. */
  | { kind: 'starting' }
  | {
      kind: 'running';
      cell: number;
      repeat: number;
      settings: SweepCellSettings;
      position: number;
      total: number;
      sinceMs: number;
      /** The run measures its path (plan.capacity): what its tuned run is doing, in words; absent otherwise. */
      measuring?: string;
    }
  | { kind: 'paused'; seconds: number; sinceMs: number }
  | { kind: 'done'; complete: boolean }
  | { kind: 'stopped'; reason: 'asked' | 'partner-gone' | 'error'; error: string | null };

export interface LiveSweep {
  view: SweepView;
  activity: SweepActivity;
  /** Position of the last finished run in this session's queue, and the queue's length. */
  position: number;
  total: number;
}

export function liveSweep(view: SweepView): LiveSweep {
  return { view, activity: view.running ? { kind: 'starting' } : { kind: 'idle' }, position: 0, total: 0 };
}

/** The sweep after one progress event (`nowMs` stamps the activity, for an elapsed-time display). */
export function applyProgress(s: LiveSweep, p: SweepProgress, nowMs: number): LiveSweep {
  switch (p.kind) {
    case 'run-start':
      return {
        ...s,
        total: p.total,
        activity: { kind: 'running', cell: p.cell, repeat: p.repeat, settings: p.settings, position: p.position, total: p.total, sinceMs: nowMs },
      };
    case 'run-done': {
      const cells = s.view.cells.map((c) => (c.cell === p.cellSummary.cell ? p.cellSummary : c));
      const runs = [...s.view.runs, p.run];
      return { ...s, view: { ...s.view, runs, cells, updatedAt: p.run.endedAt }, position: p.position, total: p.total };
    }
    case 'capacity':
      return s.activity.kind === 'running' ? { ...s, activity: { ...s.activity, measuring: capacityProgressText(p.capacity) } } : s;
    case 'path-measured':
      return { ...s, view: withCapacity(s.view, p.entry) };
    case 'paused':
      return { ...s, activity: { kind: 'paused', seconds: p.seconds, sinceMs: nowMs } };
    case 'done':
      return { ...s, view: { ...s.view, running: false, complete: p.complete }, activity: { kind: 'done', complete: p.complete } };
    case 'stopped':
      return {
        ...s,
        view: { ...s.view, running: false },
        activity: { kind: 'stopped', reason: p.reason, error: p.error ? `${p.error.message} (${p.error.code})` : null },
      };
  }
}

/** Runs of the plan with a `done` run, and all of them (cells × repeats). */
export function runsDone(view: SweepView): { done: number; planned: number } {
  const done = view.cells.reduce((n, c) => n + Math.min(c.runs, c.planned), 0);
  return { done, planned: view.cells.reduce((n, c) => n + c.planned, 0) };
}

/** Whether a Resume makes sense: not running, not complete. */
export function resumable(view: SweepView): boolean {
  return !view.running && !view.complete;
}
