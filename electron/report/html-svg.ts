/**
 * Line charts as inline SVG for the HTML report: no script, no network, and
 * they print as vectors. One small renderer: series of (x, y) points, linear
 * or log x axis, marked points, shaded spans of x, axis titles that carry the units.
 * A mark's `detail` and a span's label are hover text too (an SVG <title>), still no script.
 */

export interface SvgSeries {
  label: string;
  color: string;
  points: [number, number][];
  /** Dashed line (a model, as opposed to a measurement). */
  dashed?: boolean;
  /** A dot on every point: discrete measurements (one point alone is no line). */
  dots?: boolean;
}

/** A marked point: labelled beside it, or (no `label`) a marker whose words are its hover text. */
export interface SvgMark {
  x: number;
  y: number;
  label?: string;
  detail?: string;
  color?: string;
  shape?: 'dot' | 'cross';
}

/** A span of x shaded across the plot (e.g. while one verdict held), its label at the plot's foot when it fits. */
export interface SvgBand {
  from: number;
  to: number;
  color: string;
  label: string;
}

interface SvgChart {
  title: string;
  xTitle: string;
  /** The y axis's title; '' for none, where the tick labels carry the unit. */
  yTitle: string;
  series: SvgSeries[];
  logX?: boolean;
  /** Marked points, e.g. the measured run on the what-if chart. */
  marks?: SvgMark[];
  bands?: SvgBand[];
  /** The x axis's ends (default: the data's) and its ticks (default: round numbers). */
  xRange?: [number, number];
  xTicks?: number[];
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
  const marks = c.marks ?? [];
  const all = c.series.flatMap((s) => s.points).concat(marks.map((m): [number, number] => [m.x, m.y]));
  if (!all.length) return `<p class="muted">${esc(c.title)}: no data.</p>`;
  const tx = (v: number): number => (c.logX ? Math.log10(Math.max(v, 1e-12)) : v);
  const xs = c.xRange ? c.xRange.map(tx) : all.map((p) => tx(p[0]));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const y1 = c.yMax ?? (Math.max(...all.map((p) => p[1])) * 1.08 || 1);
  const px = (v: number): number => PAD.left + ((tx(v) - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const py = (v: number): number => H - PAD.bottom - (v / y1) * (H - PAD.top - PAD.bottom);
  const xf = c.xFormat ?? ((v: number) => String(v));
  const yf = c.yFormat ?? ((v: number) => String(v));
  const parts: string[] = [];
  parts.push(`<text x="${W / 2}" y="18" text-anchor="middle" class="t">${esc(c.title)}</text>`);
  for (const b of c.bands ?? []) {
    const [bx0, bx1] = [Math.max(PAD.left, px(b.from)), Math.min(W - PAD.right, px(b.to))];
    if (bx1 <= bx0) continue;
    parts.push(
      `<rect x="${bx0.toFixed(1)}" y="${PAD.top}" width="${(bx1 - bx0).toFixed(1)}" height="${H - PAD.top - PAD.bottom}" fill="${b.color}"><title>${esc(b.label)}</title></rect>`,
    );
    // About 6.5 px a character at the key's size: a label that would spill into the next span is left to the hover text.
    if (bx1 - bx0 > b.label.length * 6.5 + 6) parts.push(`<text x="${(bx0 + 4).toFixed(1)}" y="${H - PAD.bottom - 5}" class="k">${esc(b.label)}</text>`);
  }
  for (const v of niceTicks(0, y1)) {
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(v).toFixed(1)}" y2="${py(v).toFixed(1)}" class="g"/>`);
    parts.push(`<text x="${PAD.left - 6}" y="${(py(v) + 4).toFixed(1)}" text-anchor="end" class="k">${esc(yf(v))}</text>`);
  }
  const xTicks = c.xTicks ?? (c.logX ? niceTicks(x0, x1, 6).map((e) => 10 ** e) : niceTicks(x0, x1, 8));
  for (const v of xTicks) {
    parts.push(`<text x="${px(v).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle" class="k">${esc(xf(v))}</text>`);
  }
  parts.push(`<line x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${H - PAD.bottom}" class="a"/>`);
  parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" class="a"/>`);
  parts.push(`<text x="${W / 2}" y="${H - 8}" text-anchor="middle" class="k">${esc(c.xTitle)}</text>`);
  if (c.yTitle) parts.push(`<text transform="translate(14 ${H / 2}) rotate(-90)" text-anchor="middle" class="k">${esc(c.yTitle)}</text>`);
  // Every chart has the same plot area, so one id for its clip is the same rectangle wherever it repeats.
  const clip = c.yMax === undefined ? '' : ' clip-path="url(#lh-plot)"';
  if (clip)
    parts.push(
      `<clipPath id="lh-plot"><rect x="${PAD.left}" y="${PAD.top}" width="${W - PAD.left - PAD.right}" height="${H - PAD.top - PAD.bottom}"/></clipPath>`,
    );
  c.series.forEach((s, i) => {
    const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${px(p[0]).toFixed(1)} ${py(p[1]).toFixed(1)}`).join(' ');
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}${clip}/>`);
    if (s.dots) for (const p of s.points) parts.push(`<circle cx="${px(p[0]).toFixed(1)}" cy="${py(p[1]).toFixed(1)}" r="2.5" fill="${s.color}"${clip}/>`);
    parts.push(
      `<rect x="${PAD.left + 8 + i * 200}" y="${PAD.top - 2}" width="14" height="3" fill="${s.color}"/><text x="${PAD.left + 26 + i * 200}" y="${PAD.top + 2}" class="k">${esc(s.label)}</text>`,
    );
  });
  for (const m of marks) parts.push(markSvg(m, px(m.x), py(m.y)));
  return `<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(c.title)}" xmlns="http://www.w3.org/2000/svg">${parts.join('')}</svg>`;
}

function markSvg(m: SvgMark, mx: number, my: number): string {
  const color = m.color ?? '#d6336c';
  const title = m.detail ? `<title>${esc(m.detail)}</title>` : '';
  const [x, y] = [mx.toFixed(1), my.toFixed(1)];
  const shape =
    m.shape === 'cross'
      ? `<path d="M${(mx - 5).toFixed(1)} ${(my - 5).toFixed(1)}l10 10m0 -10l-10 10" stroke="${color}" stroke-width="2.5" fill="none">${title}</path>`
      : `<circle cx="${x}" cy="${y}" r="5" fill="${color}">${title}</circle>`;
  if (!m.label) return shape;
  // Past the plot's middle the label reads leftwards, so it stays inside the picture.
  const left = mx > (PAD.left + W - PAD.right) / 2;
  const at = `x="${(left ? mx - 8 : mx + 8).toFixed(1)}" y="${(my - 8).toFixed(1)}"${left ? ' text-anchor="end"' : ''}`;
  return `${shape}<text ${at} class="k">${esc(m.label)}</text>`;
}
