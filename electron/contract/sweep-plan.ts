/**
 * The pure rules over a sweep plan, shared by the runner, the CLI and the
 * renderer (one copy): which cells it has, in which order the runs go, how
 * long it takes, which runs a resume still owes, and each cell's figures.
 */
import { seededRandom } from './seeded-random.js';
import type { LimiterVerdict } from './result.js';
import type { SweepCell, SweepCellSettings, SweepCellSummary, SweepDimension, SweepPlan, SweepRunHeadline, SweepStats } from './sweep.js';

/** One run of the plan: which cell, which repeat (both 0-based). */
export interface SweepRunKey {
  cell: number;
  repeat: number;
}

export const runKey = (k: SweepRunKey): string => `${k.cell}:${k.repeat}`;

/** `s` with dimension `d` set to each of its values, in order, beside that value. */
function withEach(s: SweepCellSettings, d: SweepDimension): [SweepCellSettings, number | string | null][] {
  switch (d.name) {
    case 'windowBytes':
      return d.values.map((v) => [{ ...s, params: { ...s.params, windowBytes: v } }, v]);
    case 'bufferBytes':
      return d.values.map((v) => [{ ...s, params: { ...s.params, bufferBytes: v } }, v]);
    case 'streams':
      return d.values.map((v) => [{ ...s, params: { ...s.params, streams: v } }, v]);
    case 'mssBytes':
      return d.values.map((v) => [{ ...s, params: { ...s.params, mssBytes: v } }, v]);
    case 'direction':
      return d.values.map((v) => [{ ...s, params: { ...s.params, direction: v } }, v]);
    case 'link':
      return d.values.map((v) => [{ ...s, link: v }, v]);
    case 'path':
      return d.values.map((v) => [{ ...s, path: v }, v]);
  }
}

/** Every cell of the plan, numbered mixed-radix (first dimension outermost, last fastest). */
export function expandPlan(plan: SweepPlan): SweepCell[] {
  let cells: Omit<SweepCell, 'index'>[] = [{ settings: { params: { ...plan.base }, link: null, path: 'direct' }, values: {} }];
  for (const d of plan.dimensions) {
    cells = cells.flatMap((c) => withEach(c.settings, d).map(([settings, v]) => ({ settings, values: { ...c.values, [d.name]: v } })));
  }
  return cells.map((c, index) => ({ index, ...c }));
}

/**
 * The order of every run of the plan. `sequential`: cell by cell, each cell's
 * repeats back to back. `shuffled`: in rounds, each round runs every cell once
 * (repeat r of every cell in round r) in a fresh random order drawn from the
 * seed, so slow drift cannot line up with a dimension and a sweep stopped
 * half-way has every cell once per finished round.
 */
export function runOrder(plan: SweepPlan, cellCount = expandPlan(plan).length): SweepRunKey[] {
  const keys: SweepRunKey[] = [];
  if (plan.order === 'sequential') {
    for (let cell = 0; cell < cellCount; cell++) for (let repeat = 0; repeat < plan.repeat; repeat++) keys.push({ cell, repeat });
    return keys;
  }
  const next = seededRandom(plan.seed);
  for (let repeat = 0; repeat < plan.repeat; repeat++) {
    const cells = Array.from({ length: cellCount }, (_, i) => i);
    for (let i = cells.length - 1; i > 0; i--) {
      // Fisher-Yates
      const j = Math.floor(next() * (i + 1));
      const a = cells[i];
      const b = cells[j];
      if (a === undefined || b === undefined) continue;
      cells[i] = b;
      cells[j] = a;
    }
    for (const cell of cells) keys.push({ cell, repeat });
  }
  return keys;
}

/** The runs still owed, in plan order: every (cell, repeat) without a `done` run. */
export function pendingRuns(plan: SweepPlan, runs: readonly SweepRunHeadline[]): SweepRunKey[] {
  const done = new Set(runs.filter((r) => r.status === 'done').map(runKey));
  return runOrder(plan).filter((k) => !done.has(runKey(k)));
}

interface SweepDuration {
  cells: number;
  repeat: number;
  runs: number;
  /** Seconds per run; null when runs are bounded by bytes (their time is not known ahead). */
  secondsPerRun: number | null;
  pauseSeconds: number;
  /** runs × seconds + (runs - 1) × pause; null when secondsPerRun is. Setup and teardown (~1 s a run) come on top. */
  totalSeconds: number | null;
}

/** "cells × repeats × seconds (+ pauses) = total", for the CLI's plan line and the UI. `runs` defaults to all of them. */
export function planDuration(plan: SweepPlan, runs = expandPlan(plan).length * plan.repeat): SweepDuration {
  const cells = expandPlan(plan).length;
  const secondsPerRun = plan.base.seconds;
  const totalSeconds = secondsPerRun === null ? null : runs * secondsPerRun + Math.max(0, runs - 1) * plan.pauseSeconds;
  return { cells, repeat: plan.repeat, runs, secondsPerRun, pauseSeconds: plan.pauseSeconds, totalSeconds };
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  const hi = s[m];
  const lo = s[m - 1];
  if (hi === undefined) return NaN;
  return s.length % 2 || lo === undefined ? hi : (lo + hi) / 2;
}

function stats(values: (number | null)[]): SweepStats | null {
  const v = values.filter((x): x is number => x !== null && Number.isFinite(x));
  return v.length ? { median: median(v), min: Math.min(...v), max: Math.max(...v) } : null;
}

/** One cell's figures over its `done` runs. */
function summarizeCell(plan: SweepPlan, cell: SweepCell, runs: readonly SweepRunHeadline[]): SweepCellSummary {
  const counted = runs.filter((r) => r.cell === cell.index && r.status === 'done');
  const verdicts: Partial<Record<LimiterVerdict, number>> = {};
  for (const v of counted.flatMap((r) => r.verdicts)) verdicts[v] = (verdicts[v] ?? 0) + 1;
  return {
    cell: cell.index,
    settings: cell.settings,
    values: cell.values,
    runs: counted.length,
    planned: plan.repeat,
    bitsPerSecond: stats(counted.map((r) => r.bitsPerSecond)),
    streamSumBitsPerSecond: stats(counted.map((r) => r.streamSumBitsPerSecond)),
    verdicts,
  };
}

export function summarizeCells(plan: SweepPlan, runs: readonly SweepRunHeadline[]): SweepCellSummary[] {
  return expandPlan(plan).map((c) => summarizeCell(plan, c, runs));
}

/** A cell's swept values as `windowBytes=65536 path=relay` (null: `default`, or `none` for a link). */
export function describeCellValues(values: SweepCell['values']): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${v === null ? (k === 'link' ? 'none' : 'default') : v}`)
    .join(' ');
}
