/**
 * `use:chart`: the one way a Chart.js chart lives on a canvas. It makes the chart
 * when the canvas mounts (colours read from the theme then), paints it in the
 * theme, repaints it when the OS theme flips, and destroys it with the canvas, so
 * no component copies that life cycle (or forgets the theme listener on destroy).
 */
import { Chart, type ChartConfiguration, type ChartType, type DefaultDataPoint } from 'chart.js';
import { followTheme, paintChart } from './chart-theme.js';

/** What a component gives `use:chart`. */
interface ChartUse<TType extends ChartType, TData, TLabel> {
  /** The chart's configuration, built when the canvas mounts. */
  config: () => ChartConfiguration<TType, TData, TLabel>;
  /** The chart once made and painted (draw the first data here); null when it is destroyed. */
  ready: (chart: Chart<TType, TData, TLabel> | null) => void;
  /** More to repaint when the OS theme flips (a line drawn in the theme's accent colour). */
  retheme?: (chart: Chart<TType, TData, TLabel>) => void;
}

/** Svelte action: make, theme and destroy the chart on `canvas`. */
export function chart<TType extends ChartType, TData = DefaultDataPoint<TType>, TLabel = unknown>(
  canvas: HTMLCanvasElement,
  use: ChartUse<TType, TData, TLabel>,
): { destroy(): void } {
  const made = new Chart(canvas, use.config());
  // The theme helpers read scales and legend only, which every chart type has.
  const any = made as unknown as Chart;
  paintChart(any);
  const unfollow = followTheme(any, () => use.retheme?.(made));
  use.ready(made);
  return {
    destroy() {
      unfollow();
      use.ready(null);
      made.destroy();
    },
  };
}
