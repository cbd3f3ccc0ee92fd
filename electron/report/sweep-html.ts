/**
 * One self-contained HTML file per sweep (`longhaul report --from sweep.json
 * --format html`, the Sweep screen's export): the plan, the chart (the Sweep
 * screen's heat map or bars, as inline SVG), one row per cell with the median
 * and min–max of both throughput conventions' figures the runner keeps, the
 * verdicts, and every run. Cells are numbered from 1, as on the screen. The page frame is the run report's (html-page.ts);
 * the wording of settings, plan and rows is the Sweep screen's (contract/).
 */
import { measuredPathText } from '../contract/sweep-capacity.js';
import type { SweepFile } from '../contract/sweep.js';
import { sweepChart } from '../contract/sweep-chart.js';
import { cellLabel, DIMENSION_LABEL, formatDimensionValue, planHeading, planText, sweepRows, tableDimensions } from '../contract/sweep-view.js';
import { formatBinaryBytes, formatRate } from '../contract/units.js';
import { htmlPage, section } from './html-page.js';
import { esc } from './html-svg.js';
import { sweepChartSvg } from './sweep-svg.js';

const table = (head: string[], rows: string[][], numeric: (i: number) => boolean): string =>
  `<table class="rows"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>` +
  rows.map((r) => `<tr>${r.map((c, i) => `<td${numeric(i) ? ' class="n"' : ''}>${esc(c)}</td>`).join('')}</tr>`).join('') +
  '</tbody></table>';

function planSection(f: SweepFile): string {
  const p = f.plan;
  const b = p.base;
  const rows: [string, string][] = [
    ['target', p.target.kind === 'loopback' ? 'this PC (loopback: a responder on 127.0.0.1)' : `${p.target.host}:${p.target.port}`],
    ['runs', planText(p)],
    ['order', p.order === 'shuffled' ? `each repeat round in a seeded random order (seed ${p.seed})` : 'plan order'],
    ['pause between runs', `${p.pauseSeconds} s`],
    [
      'each run',
      `${b.seconds !== null ? `${b.seconds} s` : `${formatBinaryBytes(b.bytes)}`}, ${b.streams === 1 ? '1 stream' : `${b.streams} streams`}, buffer ${formatBinaryBytes(b.bufferBytes)}, window ${formatDimensionValue('windowBytes', b.windowBytes)}, ${formatDimensionValue('direction', b.direction)}, interval ${b.intervalSeconds} s`,
    ],
    ...p.dimensions.map((d): [string, string] => [`swept: ${DIMENSION_LABEL[d.name]}`, d.values.map((v) => formatDimensionValue(d.name, v)).join(', ')]),
    // Measure the path (sweep --capacity): one row per path measured, or why there is none yet.
    ...(p.capacity
      ? (f.capacity?.length ? f.capacity : [null]).map((c): [string, string] => [
          'path measured',
          c ? measuredPathText(c) : 'asked for; no run over a path finished its tuned run yet',
        ])
      : []),
  ];
  return `<table><tbody>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</tbody></table>`;
}

function cellTable(f: SweepFile): string {
  const dims = tableDimensions(f.plan);
  const head = [
    'cell',
    ...dims.map((d) => DIMENSION_LABEL[d]),
    'wall-clock aggregate, median',
    'wall-clock, min – max',
    'per-stream sum, median',
    'per-stream sum, min – max',
    'runs done / planned',
    'verdicts',
  ];
  const byCell = new Map(f.cells.map((c) => [c.cell, c]));
  const rows = sweepRows(f.plan, f.cells).map((r) => {
    const s = byCell.get(r.cell)?.streamSumBitsPerSecond ?? null;
    return [
      String(r.cell + 1),
      ...r.settings,
      r.median,
      r.range,
      r.streamSumMedian,
      s ? `${formatRate(s.min)} – ${formatRate(s.max)}` : '–',
      `${r.runs} / ${r.planned}`,
      r.verdicts || '–',
    ];
  });
  const n = dims.length;
  return table(head, rows, (i) => i === 0 || (i > n && i < n + 6));
}

function runTable(f: SweepFile): string {
  if (!f.runs.length) return '<p class="muted">No run yet.</p>';
  const head = ['#', 'cell', 'repeat', 'status', 'wall-clock aggregate', 'per-stream sum', 'verdicts', 'started (UTC)', 'error'];
  const rows = [...f.runs]
    .sort((a, b) => a.sequence - b.sequence)
    .map((r) => [
      String(r.sequence + 1),
      `${r.cell + 1}: ${cellLabel(f.plan, f.cells.find((c) => c.cell === r.cell)?.values ?? {})}`,
      String(r.repeat + 1),
      r.status,
      formatRate(r.bitsPerSecond),
      formatRate(r.streamSumBitsPerSecond),
      r.verdicts.join(', ') || '–',
      r.startedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
      r.error ? `${r.error.code}: ${r.error.message}` : '',
    ]);
  return table(head, rows, (i) => i === 0 || i === 2 || i === 4 || i === 5);
}

/** The whole sweep report as one HTML document. */
export function formatSweepHtml(f: SweepFile): string {
  const done = f.runs.filter((r) => r.status === 'done').length;
  return htmlPage(
    `Longhaul sweep ${f.id}: ${planHeading(f.plan)}`,
    `<h1>Longhaul sweep: ${esc(planHeading(f.plan))}${f.complete ? '' : ' (INCOMPLETE)'}</h1>` +
      `<p class="muted">Sweep ${esc(f.id)}, started ${esc(f.startedAt)}, last written ${esc(f.updatedAt)}, ${esc(f.software)}. ${done} of ${f.runs.length} runs done${f.complete ? ': every cell has all its runs' : '; the figures count done runs only'}.</p>` +
      `<p class="muted">Wall-clock aggregate: all bytes × 8 / first byte to last byte. Per-stream sum: each stream over its own time (the PetaBumps "Total Throughput"). Never compare one with the other. Mbit = 10^6 bit; KiB = 1,024 bytes.</p>` +
      section('Plan', planSection(f)) +
      section('Throughput per cell', sweepChartSvg(sweepChart(f.plan, f.cells))) +
      section('Cells', cellTable(f)) +
      section('Runs (in the order they ran; partial and failed runs are kept, not counted)', runTable(f)),
  );
}
