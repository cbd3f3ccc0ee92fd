/**
 * What the Sweep screen shows of a plan and its cells: dimension names and
 * values in words with units, the plan line ("4 cells × 3 repeats × 5 s = …",
 * from the contract's `planDuration`, the runner's own rule), and one table
 * row per cell from the contract's `SweepCellSummary` (medians and min–max are
 * the runner's, never recomputed here).
 */
import { directionLabel } from './direction.js';
import type { LimiterVerdict } from './result.js';
import { planDuration } from './sweep-plan.js';
import { VERDICT_WORDS } from './verdict-labels.js';
import type { SweepCell, SweepCellSummary, SweepDimensionName, SweepPlan, SweepStats } from './sweep.js';
import { formatBinaryBytes, formatRate, groupDigits } from './units.js';

export const DIMENSION_LABEL: Record<SweepDimensionName, string> = {
  windowBytes: 'window',
  bufferBytes: 'buffer',
  streams: 'streams',
  mssBytes: 'MSS',
  direction: 'direction',
  link: 'link',
  path: 'path',
};

/** One dimension value in words, with its unit: `64.0 KiB`, `OS default`, `4 streams`, `no emulator`. */
export function formatDimensionValue(name: SweepDimensionName, value: number | string | null | undefined): string {
  if (value === undefined) return '–';
  switch (name) {
    case 'windowBytes':
    case 'mssBytes':
      return value === null ? 'OS default' : typeof value === 'number' ? (value < 1024 ? `${groupDigits(value)} B` : formatBinaryBytes(value)) : String(value);
    case 'bufferBytes':
      return typeof value === 'number' ? formatBinaryBytes(value) : String(value);
    case 'streams':
      return value === 1 ? '1 stream' : `${value} streams`;
    case 'direction':
      return directionLabel(String(value));
    case 'link':
      return value === null ? 'no emulator' : String(value);
    case 'path':
      return value === 'relay' ? 'relay (local proxy)' : 'direct';
  }
}

/** "1 h 2 min 5 s", "45 s", "2 min": what a person reads before pressing Start. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const parts = [h ? `${h} h` : '', m ? `${m} min` : '', rest || (!h && !m) ? `${rest} s` : ''].filter(Boolean);
  return parts.join(' ');
}

/**
 * The plan line, e.g. `4 cells × 3 repeats × 5 s + 11 pauses of 1 s = 1 min 11 s (12 runs)`,
 * for all runs or for `runs` of them (a resume's remainder).
 */
export function planText(plan: SweepPlan, runs?: number): string {
  const d = planDuration(plan, runs);
  const cells = `${d.cells} ${d.cells === 1 ? 'cell' : 'cells'} × ${d.repeat} ${d.repeat === 1 ? 'repeat' : 'repeats'}`;
  if (d.secondsPerRun === null || d.totalSeconds === null) return `${cells} = ${d.runs} runs, each until its byte count has moved`;
  const pauses = d.runs > 1 && d.pauseSeconds > 0 ? ` + ${d.runs - 1} pauses of ${d.pauseSeconds} s` : '';
  const which = runs === undefined ? '' : ' still to run';
  return `${cells} × ${d.secondsPerRun} s${pauses} = ${formatDuration(d.totalSeconds)} (${d.runs} runs${which})`;
}

/** `This PC (loopback): window × streams`, `192.0.2.7:5211: buffer`: what a sweep is about, in words. */
export function sweepHeading(target: 'loopback' | 'peer', partner: string | null, swept: readonly SweepDimensionName[]): string {
  const where = target === 'loopback' ? 'This PC (loopback)' : (partner ?? 'partner');
  return `${where}: ${swept.length ? swept.map((d) => DIMENSION_LABEL[d]).join(' × ') : 'one cell'}`;
}

/** The heading of a plan (sweepHeading over its swept settings). */
export function planHeading(plan: SweepPlan): string {
  const t = plan.target;
  return sweepHeading(
    t.kind,
    t.kind === 'peer' ? `${t.host}:${t.port}` : null,
    plan.dimensions.filter((d) => d.values.length > 1).map((d) => d.name),
  );
}

/** The swept dimensions (two or more values), in plan order: the axes of the chart and the table's leading columns. */
export function sweptDimensions(plan: SweepPlan): { name: SweepDimensionName; values: (number | string | null)[] }[] {
  return plan.dimensions.filter((d) => d.values.length > 1).map((d) => ({ name: d.name, values: [...d.values] }));
}

/** The dimensions in the table: every one in the plan (a one-value link or path is still worth a column). */
export function tableDimensions(plan: SweepPlan): SweepDimensionName[] {
  return plan.dimensions.map((d) => d.name);
}

interface SweepRow {
  cell: number;
  /** One per `tableDimensions`, in words. */
  settings: string[];
  /** Wall-clock aggregate: median and "min–max", or '–' before a run is done. */
  median: string;
  range: string;
  /** Per-stream sum (each stream over its own time, summed), median. */
  streamSumMedian: string;
  runs: number;
  planned: number;
  verdicts: string;
  /** For sorting and the chart: the median bit/s or null. */
  medianBitsPerSecond: number | null;
}

/** `window ×2, congestion ×1`: how many counted runs had each verdict. */
export function verdictText(verdicts: SweepCellSummary['verdicts']): string {
  const parts = (Object.entries(verdicts) as [LimiterVerdict, number][]).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  return parts.map(([v, n]) => `${VERDICT_WORDS[v] ?? v} ×${n}`).join(', ');
}

function range(s: SweepStats | null): string {
  return s ? `${formatRate(s.min)} – ${formatRate(s.max)}` : '–';
}

/** The table's rows, one per cell, in cell order. */
export function sweepRows(plan: SweepPlan, cells: readonly SweepCellSummary[]): SweepRow[] {
  const dims = tableDimensions(plan);
  return cells.map((c) => ({
    cell: c.cell,
    settings: dims.map((d) => formatDimensionValue(d, c.values[d])),
    median: c.bitsPerSecond ? formatRate(c.bitsPerSecond.median) : '–',
    range: range(c.bitsPerSecond),
    streamSumMedian: c.streamSumBitsPerSecond ? formatRate(c.streamSumBitsPerSecond.median) : '–',
    runs: c.runs,
    planned: c.planned,
    verdicts: verdictText(c.verdicts),
    medianBitsPerSecond: c.bitsPerSecond?.median ?? null,
  }));
}

/** Values that already say what they are (`4 streams`): no name in front of them, or the label reads "streams 4 streams". */
const SELF_NAMED: readonly SweepDimensionName[] = ['streams'];

/** One setting named with its value: `window 64.0 KiB`, `4 streams`. */
export function namedValue(name: SweepDimensionName, value: number | string | null | undefined): string {
  return (SELF_NAMED.includes(name) ? '' : `${DIMENSION_LABEL[name]} `) + formatDimensionValue(name, value);
}

/** A cell's values in words, `window 64.0 KiB · 4 streams`, for chart tooltips and the "now running" line. */
export function cellLabel(plan: SweepPlan, values: SweepCell['values']): string {
  const dims = tableDimensions(plan);
  if (dims.length === 0) return 'the one cell';
  return dims.map((d) => namedValue(d, values[d])).join(' · ');
}
