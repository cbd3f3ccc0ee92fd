/**
 * Chart colours follow the OS theme: Chart.js paints with fixed colours, so
 * they are read from the CSS variables at creation and again whenever
 * `prefers-color-scheme` flips (a dark chart grid on a light page, or the
 * reverse, is unreadable).
 */
import type { Chart } from 'chart.js';

/** A CSS variable's current value. */
export function cssColor(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** Paint every scale's grid, ticks and title, and the legend, in the theme's colours. */
export function paintChart(chart: Chart): void {
  const grid = cssColor('--line');
  const text = cssColor('--muted');
  for (const scale of Object.values(chart.options.scales ?? {})) {
    if (!scale) continue;
    if (scale.grid) scale.grid.color = grid;
    if (scale.ticks) scale.ticks.color = text;
    const title = (scale as { title?: { color?: string } }).title;
    if (title) title.color = text;
  }
  const labels = chart.options.plugins?.legend?.labels;
  if (labels) labels.color = text;
}

/** Repaint `chart` (and call `extra`) when the OS theme changes; returns the unsubscribe. */
export function followTheme(chart: Chart, extra: () => void = () => undefined): () => void {
  const mq = matchMedia('(prefers-color-scheme: dark)');
  const onChange = (): void => {
    paintChart(chart);
    extra();
    chart.update('none');
  };
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}
