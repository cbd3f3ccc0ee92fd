/**
 * The Sweep chart's data, pure: with exactly two swept settings a heat map
 * (one axis each, colour = median wall-clock throughput); otherwise grouped
 * bars (the setting with the most values along x, one bar colour per
 * combination of the others) with min–max whiskers. Cells without a done run
 * are holes (null), never zeros: nothing was measured there yet.
 */
import type { SweepCellSummary, SweepDimensionName, SweepPlan } from './sweep.js';
import { DIMENSION_LABEL, formatDimensionValue, namedValue, sweptDimensions } from './sweep-view.js';

export interface HeatCell {
  /** Indexes into xLabels / yLabels. */
  x: number;
  y: number;
  /** Median wall-clock bit/s, null before a done run. */
  median: number | null;
  min: number | null;
  max: number | null;
  runs: number;
  planned: number;
}

export interface HeatMapData {
  kind: 'heatmap';
  xTitle: string;
  yTitle: string;
  xLabels: string[];
  yLabels: string[];
  cells: HeatCell[];
  /** Lowest and highest median over the measured cells (the colour scale's ends), null when none is measured. */
  low: number | null;
  high: number | null;
}

interface BarSeries {
  /** Legend text: the other settings' values, or 'median' when only one setting is swept. */
  label: string;
  /** One per x label: median, min, max bit/s; null where nothing is measured yet. */
  median: (number | null)[];
  min: (number | null)[];
  max: (number | null)[];
}

export interface BarData {
  kind: 'bars';
  xTitle: string;
  xLabels: string[];
  series: BarSeries[];
}

export type SweepChartData = HeatMapData | BarData;

type Values = SweepCellSummary['values'];

function indexOf(values: readonly (number | string | null)[], v: number | string | null | undefined): number {
  return values.findIndex((x) => x === (v ?? null));
}

/** The chart for a plan's cells: a heat map for two swept settings, grouped bars otherwise. */
export function sweepChart(plan: SweepPlan, cells: readonly SweepCellSummary[]): SweepChartData {
  const swept = sweptDimensions(plan);
  const [across, down] = swept;
  if (swept.length === 2 && across && down) return heatMap(across, down, cells);
  return bars(swept, cells);
}

function heatMap(
  ydim: { name: SweepDimensionName; values: (number | string | null)[] },
  xdim: { name: SweepDimensionName; values: (number | string | null)[] },
  cells: readonly SweepCellSummary[],
): HeatMapData {
  // The plan's last dimension changes fastest: along x, as a table reads left to right.
  const out: HeatCell[] = cells.map((c) => ({
    x: indexOf(xdim.values, c.values[xdim.name]),
    y: indexOf(ydim.values, c.values[ydim.name]),
    median: c.bitsPerSecond?.median ?? null,
    min: c.bitsPerSecond?.min ?? null,
    max: c.bitsPerSecond?.max ?? null,
    runs: c.runs,
    planned: c.planned,
  }));
  const measured = out.map((c) => c.median).filter((m): m is number => m !== null);
  return {
    kind: 'heatmap',
    xTitle: DIMENSION_LABEL[xdim.name],
    yTitle: DIMENSION_LABEL[ydim.name],
    xLabels: xdim.values.map((v) => formatDimensionValue(xdim.name, v)),
    yLabels: ydim.values.map((v) => formatDimensionValue(ydim.name, v)),
    cells: out,
    low: measured.length ? Math.min(...measured) : null,
    high: measured.length ? Math.max(...measured) : null,
  };
}

function bars(swept: { name: SweepDimensionName; values: (number | string | null)[] }[], cells: readonly SweepCellSummary[]): BarData {
  // Along x: the setting with the most values (ties: the first); the rest name the series.
  const xdim = swept.reduce<(typeof swept)[number] | null>((best, d) => (!best || d.values.length > best.values.length ? d : best), null);
  const others = swept.filter((d) => d !== xdim);
  const xLabels = xdim ? xdim.values.map((v) => formatDimensionValue(xdim.name, v)) : ['all runs'];
  const byLabel = new Map<string, BarSeries>();
  const seriesLabel = (values: Values): string => (others.length === 0 ? 'median' : others.map((d) => namedValue(d.name, values[d.name])).join(' · '));
  // Series in cell order, so their colours follow the plan.
  for (const c of cells) {
    const label = seriesLabel(c.values);
    let s = byLabel.get(label);
    if (!s) byLabel.set(label, (s = { label, median: xLabels.map(() => null), min: xLabels.map(() => null), max: xLabels.map(() => null) }));
    const i = xdim ? indexOf(xdim.values, c.values[xdim.name]) : 0;
    if (i < 0 || !c.bitsPerSecond) continue;
    s.median[i] = c.bitsPerSecond.median;
    s.min[i] = c.bitsPerSecond.min;
    s.max[i] = c.bitsPerSecond.max;
  }
  return { kind: 'bars', xTitle: xdim ? DIMENSION_LABEL[xdim.name] : 'cell', xLabels, series: [...byLabel.values()] };
}

/** Lightness of a heat cell, % (88 = slowest measured, 32 = fastest), or null when unmeasured. */
function heatLightness(value: number | null, low: number | null, high: number | null): number | null {
  if (value === null || low === null || high === null) return null;
  const t = high > low ? (value - low) / (high - low) : 1;
  return 88 - 56 * Math.min(1, Math.max(0, t));
}

/**
 * A heat colour for `value` between `low` and `high`: a sequential ramp from
 * a pale to a deep blue (one hue, so it reads in both themes and for the
 * colour-blind: lightness carries the value). Unmeasured cells get null.
 */
export function heatColor(value: number | null, low: number | null, high: number | null): string | null {
  const l = heatLightness(value, low, high);
  return l === null ? null : `hsl(215, 85%, ${l.toFixed(0)}%)`;
}

/** Whether a heat cell's text should be white (on a dark cell) rather than black. */
export function heatTextLight(value: number | null, low: number | null, high: number | null): boolean {
  const l = heatLightness(value, low, high);
  return l !== null && l < 55;
}
