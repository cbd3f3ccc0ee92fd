/**
 * Line charts as inline SVG for the HTML report: no script, no network, and
 * they print as vectors. One small renderer: series of (x, y) points, linear
 * or log x axis, an optional marked point, axis titles that carry the units.
 */

export interface SvgSeries {
  label: string;
  color: string;
  points: [number, number][];
  /** Dashed line (a model, as opposed to a measurement). */
  dashed?: boolean;
}

interface SvgChart {
  title: string;
  xTitle: string;
  yTitle: string;
  series: SvgSeries[];
  logX?: boolean;
  /** A single marked point, e.g. the measured run on the what-if chart. */
  mark?: { x: number; y: number; label: string };
  /** Top of the y axis; lines above it are cut at the plot's edge (the caller says so beside the chart). */
  yMax?: number;
  /** Tick label formatters. */
  xFormat?: (v: number) => string;
  yFormat?: (v: number) => string;
}

const W = 720;
const H = 280;
const PAD = { left: 70, right: 16, top: 30, bottom: 44 };

/** Escape text for HTML and SVG. */
export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** About `n` round tick values from lo to hi. */
function niceTicks(lo: number, hi: number, n = 5): number[] {
  if (hi <= lo) return [lo];
  const raw = (hi - lo) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** The chart as one `<svg>` element. */
export function svgLineChart(c: SvgChart): string {
  const all = c.series.flatMap((s) => s.points).concat(c.mark ? [[c.mark.x, c.mark.y]] : []);
  if (!all.length) return `<p class="muted">${esc(c.title)}: no data.</p>`;
  const tx = (v: number): number => (c.logX ? Math.log10(Math.max(v, 1e-12)) : v);
  const xs = all.map((p) => tx(p[0]));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const y1 = c.yMax ?? (Math.max(...all.map((p) => p[1])) * 1.08 || 1);
  const px = (v: number): number => PAD.left + ((tx(v) - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const py = (v: number): number => H - PAD.bottom - (v / y1) * (H - PAD.top - PAD.bottom);
  const xf = c.xFormat ?? ((v: number) => String(v));
  const yf = c.yFormat ?? ((v: number) => String(v));
  const parts: string[] = [];
  parts.push(`<text x="${W / 2}" y="18" text-anchor="middle" class="t">${esc(c.title)}</text>`);
  for (const v of niceTicks(0, y1)) {
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(v).toFixed(1)}" y2="${py(v).toFixed(1)}" class="g"/>`);
    parts.push(`<text x="${PAD.left - 6}" y="${(py(v) + 4).toFixed(1)}" text-anchor="end" class="k">${esc(yf(v))}</text>`);
  }
  const xTicks = c.logX ? niceTicks(x0, x1, 6).map((e) => 10 ** e) : niceTicks(x0, x1, 8);
  for (const v of xTicks) {
    parts.push(`<text x="${px(v).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle" class="k">${esc(xf(v))}</text>`);
  }
  parts.push(`<line x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${H - PAD.bottom}" class="a"/>`);
  parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" class="a"/>`);
  parts.push(`<text x="${W / 2}" y="${H - 8}" text-anchor="middle" class="k">${esc(c.xTitle)}</text>`);
  parts.push(`<text transform="translate(14 ${H / 2}) rotate(-90)" text-anchor="middle" class="k">${esc(c.yTitle)}</text>`);
  // Every chart has the same plot area, so one id for its clip is the same rectangle wherever it repeats.
  const clip = c.yMax === undefined ? '' : ' clip-path="url(#lh-plot)"';
  if (clip)
    parts.push(
      `<clipPath id="lh-plot"><rect x="${PAD.left}" y="${PAD.top}" width="${W - PAD.left - PAD.right}" height="${H - PAD.top - PAD.bottom}"/></clipPath>`,
    );
  c.series.forEach((s, i) => {
    const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${px(p[0]).toFixed(1)} ${py(p[1]).toFixed(1)}`).join(' ');
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}${clip}/>`);
    parts.push(
      `<rect x="${PAD.left + 8 + i * 200}" y="${PAD.top - 2}" width="14" height="3" fill="${s.color}"/><text x="${PAD.left + 26 + i * 200}" y="${PAD.top + 2}" class="k">${esc(s.label)}</text>`,
    );
  });
  if (c.mark) {
    const [mx, my] = [px(c.mark.x), py(c.mark.y)];
    // Past the plot's middle the label reads leftwards, so it stays inside the picture.
    const left = mx > (PAD.left + W - PAD.right) / 2;
    const label = `x="${(left ? mx - 8 : mx + 8).toFixed(1)}" y="${(my - 8).toFixed(1)}"${left ? ' text-anchor="end"' : ''}`;
    parts.push(`<circle cx="${mx.toFixed(1)}" cy="${my.toFixed(1)}" r="5" fill="#d6336c"/><text ${label} class="k">${esc(c.mark.label)}</text>`);
  }
  return `<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(c.title)}" xmlns="http://www.w3.org/2000/svg">${parts.join('')}</svg>`;
}
