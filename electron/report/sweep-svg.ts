/**
 * The Sweep screen's chart as inline SVG for the sweep HTML report: the same
 * data (contract/sweep-chart.ts: a heat map for two swept settings, grouped
 * bars with min–max whiskers otherwise) and the same heat colours, drawn
 * without script. Unmeasured cells are holes, never zeros.
 */
import type { BarData, HeatMapData, SweepChartData } from '../contract/sweep-chart.js';
import { heatColor, heatTextLight } from '../contract/sweep-chart.js';
import { formatRateShort } from '../contract/units.js';
import { esc } from './html-svg.js';

const COLORS = ['#0b5fff', '#e8590c', '#2f9e44', '#ae3ec9', '#1098ad', '#f08c00', '#5c940d', '#c2255c'];
const W = 720;

function svg(h: number, title: string, parts: string[]): string {
  return (
    `<svg viewBox="0 0 ${W} ${h}" width="100%" role="img" aria-label="${esc(title)}" xmlns="http://www.w3.org/2000/svg">` +
    `<text x="${W / 2}" y="18" text-anchor="middle" class="t">${esc(title)}</text>${parts.join('')}</svg>`
  );
}

/** Rows = the first swept setting, columns = the second; each cell's median wall-clock rate written in it. */
function heatMapSvg(d: HeatMapData): string {
  const left = 130;
  const top = 50;
  const cw = Math.min(140, (W - left - 10) / Math.max(1, d.xLabels.length));
  const ch = 44;
  const parts: string[] = [];
  parts.push(`<text x="${left + (cw * d.xLabels.length) / 2}" y="36" text-anchor="middle" class="k">${esc(d.xTitle)}</text>`);
  d.xLabels.forEach((l, i) => parts.push(`<text x="${(left + cw * i + cw / 2).toFixed(1)}" y="${top - 4}" text-anchor="middle" class="k">${esc(l)}</text>`));
  d.yLabels.forEach((l, j) => parts.push(`<text x="${left - 6}" y="${(top + ch * j + ch / 2 + 4).toFixed(1)}" text-anchor="end" class="k">${esc(l)}</text>`));
  parts.push(`<text transform="translate(14 ${top + (ch * d.yLabels.length) / 2}) rotate(-90)" text-anchor="middle" class="k">${esc(d.yTitle)}</text>`);
  for (const c of d.cells) {
    if (c.x < 0 || c.y < 0) continue;
    const [x, y] = [left + cw * c.x, top + ch * c.y];
    const fill = heatColor(c.median, d.low, d.high);
    parts.push(
      `<rect x="${x.toFixed(1)}" y="${y}" width="${(cw - 2).toFixed(1)}" height="${ch - 2}" fill="${fill ?? '#fff'}" stroke="#ccd"${fill ? '' : ' stroke-dasharray="4 3"'}/>`,
    );
    const ink = heatTextLight(c.median, d.low, d.high) ? '#fff' : '#1b1f24';
    const text = c.median === null ? 'not measured' : formatRateShort(c.median);
    parts.push(`<text x="${(x + cw / 2).toFixed(1)}" y="${y + 18}" text-anchor="middle" font-size="12" fill="${ink}">${esc(text)}</text>`);
    parts.push(`<text x="${(x + cw / 2).toFixed(1)}" y="${y + 33}" text-anchor="middle" font-size="10" fill="${ink}">${c.runs}/${c.planned} runs</text>`);
  }
  return svg(top + ch * d.yLabels.length + 10, 'Median wall-clock throughput per cell (darker = faster; Mbit = 10^6 bit)', parts);
}

/** Grouped bars: median per x value and series, with a min–max whisker. */
function barsSvg(d: BarData): string {
  const [left, right, top, bottom, h] = [70, 16, 50, 48, 300];
  const all = d.series.flatMap((s) => s.max).filter((v): v is number => v !== null);
  const yMax = (all.length ? Math.max(...all) : 1) * 1.08;
  const py = (v: number): number => h - bottom - (v / yMax) * (h - top - bottom);
  const gw = (W - left - right) / Math.max(1, d.xLabels.length);
  const bw = Math.max(4, (gw * 0.8) / Math.max(1, d.series.length));
  const parts: string[] = [];
  for (let k = 0; k <= 4; k++) {
    const v = (yMax * k) / 4;
    parts.push(
      `<line x1="${left}" x2="${W - right}" y1="${py(v).toFixed(1)}" y2="${py(v).toFixed(1)}" class="g"/><text x="${left - 6}" y="${(py(v) + 4).toFixed(1)}" text-anchor="end" class="k">${v === 0 ? '0' : esc(formatRateShort(v))}</text>`,
    );
  }
  d.xLabels.forEach((l, i) =>
    parts.push(`<text x="${(left + gw * i + gw / 2).toFixed(1)}" y="${h - bottom + 16}" text-anchor="middle" class="k">${esc(l)}</text>`),
  );
  parts.push(`<text x="${W / 2}" y="${h - 10}" text-anchor="middle" class="k">${esc(d.xTitle)}</text>`);
  d.series.forEach((s, si) => {
    const color = COLORS[si % COLORS.length] ?? '#444';
    parts.push(
      `<rect x="${left + 8 + (si % 3) * 210}" y="${30 + Math.floor(si / 3) * 12}" width="10" height="8" fill="${color}"/><text x="${left + 22 + (si % 3) * 210}" y="${38 + Math.floor(si / 3) * 12}" class="k">${esc(s.label)}</text>`,
    );
    s.median.forEach((m, i) => {
      const x = left + gw * i + gw * 0.1 + bw * si;
      if (m === null) {
        parts.push(`<text x="${(x + bw / 2).toFixed(1)}" y="${h - bottom - 4}" text-anchor="middle" font-size="9" fill="#667">–</text>`);
        return;
      }
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${py(m).toFixed(1)}" width="${(bw - 2).toFixed(1)}" height="${(h - bottom - py(m)).toFixed(1)}" fill="${color}"/>`,
      );
      const [lo, hi] = [s.min[i], s.max[i]];
      if (lo !== null && lo !== undefined && hi !== null && hi !== undefined) {
        const cx = (x + bw / 2 - 1).toFixed(1);
        parts.push(
          `<path d="M${cx} ${py(lo).toFixed(1)}V${py(hi).toFixed(1)}M${(x + bw / 2 - 5).toFixed(1)} ${py(hi).toFixed(1)}h8M${(x + bw / 2 - 5).toFixed(1)} ${py(lo).toFixed(1)}h8" stroke="#1b1f24" stroke-width="1.2" fill="none"/>`,
        );
      }
    });
  });
  parts.push(`<line x1="${left}" x2="${W - right}" y1="${h - bottom}" y2="${h - bottom}" class="a"/>`);
  return svg(h, 'Median wall-clock throughput per cell, whiskers min–max (Mbit = 10^6 bit)', parts);
}

export function sweepChartSvg(d: SweepChartData): string {
  return d.kind === 'heatmap' ? heatMapSvg(d) : barsSvg(d);
}
