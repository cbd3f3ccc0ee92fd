/**
 * Synthetic sweeps for renderer tests: a plan and run headlines, with the
 * cells summarized by the contract's own rule (summarizeCells), so a test
 * checks the view, not a hand-made median.
 */
import type { SweepView } from '../../electron/contract/sweep-app.js';
import { expandPlan, summarizeCells } from '../../electron/contract/sweep-plan.js';
import type { SweepPlan, SweepRunHeadline, SweepRunStatus } from '../../electron/contract/sweep.js';

export function makePlan(over: Partial<SweepPlan> = {}): SweepPlan {
  return {
    target: { kind: 'loopback' },
    base: { streams: 1, bufferBytes: 131_072, windowBytes: null, bytes: null, seconds: 1, direction: 'forward', intervalSeconds: 1 },
    dimensions: [
      { name: 'windowBytes', values: [null, 65_536] },
      { name: 'streams', values: [1, 4] },
    ],
    repeat: 2,
    pauseSeconds: 0.5,
    order: 'sequential',
    seed: 7,
    ...over,
  };
}

/** A headline for (cell, repeat) with `bps` wall-clock (per-stream sum 1 % higher). */
export function headlineOf(plan: SweepPlan, cell: number, repeat: number, bps: number | null, status: SweepRunStatus = 'done', sequence = 0): SweepRunHeadline {
  return {
    cell,
    repeat,
    sequence,
    settings: expandPlan(plan)[cell]!.settings,
    status,
    startedAt: '2026-12-01T10:00:00.000Z',
    endedAt: '2026-12-01T10:00:01.000Z',
    bitsPerSecond: bps,
    streamSumBitsPerSecond: bps === null ? null : bps * 1.01,
    verdicts: bps === null ? [] : ['window-limited'],
    error: status === 'failed' ? { code: 'LH_ERR_PEER_GONE', message: 'gone' } : null,
  };
}

export function makeView(plan: SweepPlan, runs: SweepRunHeadline[], running = false): SweepView {
  return {
    schema: 'longhaul.sweep/1',
    id: '0f1e2d3c-aaaa-bbbb-cccc-000000000001',
    title: 'loopback: windowBytes × streams',
    software: 'test',
    startedAt: '2026-12-01T10:00:00.000Z',
    updatedAt: '2026-12-01T10:00:00.000Z',
    complete: false,
    plan,
    runs,
    cells: summarizeCells(plan, runs),
    running,
  };
}
