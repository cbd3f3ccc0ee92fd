/**
 * The HTML report's schedule view (`longhaul history --schedule NAME --format html`): one self-contained
 * page of the runs a History filter picks, read from the same rows as the CSV (history-csv.ts). A header
 * (schedule, time range, runs, peers), then per peer — and per direction where a peer's runs measured
 * both — the wall-clock throughput of each test over time with the path's capacity where `--capacity`
 * measured it, partial and failed tests marked, the verdict shaded along the time axis, and a table of
 * the last runs. Without a schedule the runs are grouped by schedule, the runs started by hand as one
 * more group. Times are UTC: the file is handed on. The page frame, escaping and chart are the run
 * report's (html-page.ts, html-svg.ts); every string from a result file goes through `esc`.
 */
import type { HistoryFilter } from '../contract/history.js';
import type { LimiterVerdict } from '../contract/result.js';
import { formatRate, formatRateTick } from '../contract/units.js';
import { VERDICT_WORDS } from '../contract/verdict-labels.js';
import { printable } from '../util/printable.js';
import type { HistoryRow } from './history-csv.js';
import { htmlPage, section } from './html-page.js';
import { esc, svgLineChart, type SvgBand, type SvgMark } from './html-svg.js';

/** Rows in each chart's table: the newest ones. */
const LAST_RUNS = 10;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Tick steps of the time axis: the smallest that gives at most 7 ticks. */
const TIME_STEPS = [
  MIN,
  2 * MIN,
  5 * MIN,
  10 * MIN,
  15 * MIN,
  30 * MIN,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  28 * DAY,
];
const RATE_COLOR = '#0b5fff';
const CAPACITY_COLOR = '#2f9e44';
const PARTIAL_COLOR = '#e8590c';
const FAILED_COLOR = '#c92a2a';
/** Light shades behind the chart, one per verdict; the words are VERDICT_WORDS'. */
const VERDICT_SHADES: Record<LimiterVerdict, string> = {
  'window-limited': '#fff3bf',
  'send-buffer-limited': '#ffe8cc',
  'receiver-limited': '#f3d9fa',
  'congestion-limited': '#ffe3e3',
  'loss-limited': '#ffc9c9',
  'application-limited': '#e5dbff',
  'cpu-limited': '#d0ebff',
  'link-limited': '#d3f9d8',
  'emulator-limited': '#c5f6fa',
  'mss-limited': '#e9ecef',
  unknown: '#f1f3f5',
};
const FLOW_WORDS: Record<string, string> = {
  controller_to_responder: 'this PC → peer',
  responder_to_controller: 'peer → this PC',
};

const str = (v: HistoryRow[keyof HistoryRow]): string => (v === null ? '' : String(v));
const numOrNull = (v: HistoryRow[keyof HistoryRow]): number | null => (typeof v === 'number' ? v : null);
const timeOf = (r: HistoryRow): number => Date.parse(str(r.started_at_utc));

/** A verdict's word; one a later version added (or a hand-edited file) as written. */
function verdictWord(v: string): string {
  return (VERDICT_WORDS as Record<string, string | undefined>)[v] ?? printable(v, 30);
}

function verdictShade(v: string): string {
  return (VERDICT_SHADES as Record<string, string | undefined>)[v] ?? VERDICT_SHADES.unknown;
}

/** A test that measured nothing: a row without a direction or without a rate. */
const failed = (r: HistoryRow): boolean => r.flow === null || r.wall_clock_bits_per_s === null;

function peerLabel(r: HistoryRow): string {
  const host = printable(str(r.responder_host), 64);
  const address = printable(str(r.responder_address), 64);
  return address ? `${host} (${address})` : host;
}

/** `2026-12-07 09:15:05Z` */
function utc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}

function timeTicks(x0: number, x1: number): { ticks: number[]; format: (v: number) => string; title: string } {
  const step = TIME_STEPS.find((s) => (x1 - x0) / s <= 7) ?? Math.ceil((x1 - x0) / 7 / DAY) * DAY;
  const ticks: number[] = [];
  for (let v = Math.ceil(x0 / step) * step; v <= x1; v += step) ticks.push(v);
  const iso = (v: number): string => new Date(v).toISOString();
  const oneDay = iso(x0).slice(0, 10) === iso(x1).slice(0, 10);
  if (oneDay) return { ticks, format: (v) => iso(v).slice(11, 16), title: `start of each test, UTC, ${iso(x0).slice(0, 10)}` };
  if (step >= DAY) return { ticks, format: (v) => iso(v).slice(5, 10), title: 'start of each test, UTC (month-day)' };
  return { ticks, format: (v) => `${iso(v).slice(5, 10)} ${iso(v).slice(11, 16)}`, title: 'start of each test, UTC (month-day hour:minute)' };
}

/** The spans over which one verdict held, each from the test that first gave it to the next test with another. */
function verdictBands(rows: readonly HistoryRow[], end: number): { bands: SvgBand[]; changes: string[] } {
  const judged = rows.filter((r) => r.verdict !== null);
  const bands: SvgBand[] = [];
  const changes: string[] = [];
  for (const r of judged) {
    const v = str(r.verdict);
    const prev = bands[bands.length - 1];
    const at = timeOf(r);
    if (prev && prev.label === verdictWord(v)) continue;
    if (prev) {
      prev.to = at;
      changes.push(`${utc(at)}: ${prev.label} → ${verdictWord(v)}`);
    }
    bands.push({ from: at, to: end, color: verdictShade(v), label: verdictWord(v) });
  }
  return { bands, changes };
}

interface ChartRows {
  peer: string;
  flow: string | null;
  rows: HistoryRow[];
}

/** One chart per peer, and per direction where the peer's runs measured both; a test that measured nothing goes in each. */
function chartsOf(rows: readonly HistoryRow[]): ChartRows[] {
  const byPeer = new Map<string, HistoryRow[]>();
  for (const r of rows) {
    const key = `${str(r.responder_host)}\u0000${str(r.responder_address)}`;
    byPeer.set(key, [...(byPeer.get(key) ?? []), r]);
  }
  return [...byPeer.values()].flatMap((peerRows) => {
    const peer = peerLabel(peerRows[0] as HistoryRow);
    const flows = [...new Set(peerRows.flatMap((r) => (r.flow === null ? [] : [str(r.flow)])))];
    if (flows.length <= 1) return [{ peer, flow: flows[0] ?? null, rows: peerRows }];
    return flows.map((flow) => ({ peer, flow, rows: peerRows.filter((r) => r.flow === null || r.flow === flow) }));
  });
}

function statusText(r: HistoryRow): string {
  if (failed(r)) return `failed${r.error_code ? `: ${str(r.error_code)}` : ''}${r.partial_reason ? ` (${str(r.partial_reason)})` : ''}`;
  if (r.partial === true) return `partial${r.partial_reason ? `: ${str(r.partial_reason)}` : ''}`;
  return 'ok';
}

function lastRunsTable(rows: readonly HistoryRow[]): string {
  const head = ['started (UTC)', 'slot', 'protocol', 'wall-clock rate', 'capacity', 'verdict', 'RTT', 'retransmits / UDP loss', 'status'];
  const last = rows.slice(-LAST_RUNS).reverse();
  const body = last.map((r) => {
    const loss = r.udp_loss_percent === null ? '' : `${str(r.udp_loss_percent)} %`;
    const cells: [string, boolean][] = [
      [utc(timeOf(r)), false],
      [str(r.slot) || '–', true],
      [`${str(r.protocol)}, ${str(r.streams)} × ${str(r.direction)}`, false],
      [failed(r) ? '–' : formatRate(numOrNull(r.wall_clock_bits_per_s)), true],
      [r.capacity_payload_bits_per_s === null ? '–' : formatRate(numOrNull(r.capacity_payload_bits_per_s)), true],
      [r.verdict === null ? '–' : verdictWord(str(r.verdict)), false],
      [r.rtt_ms === null ? '–' : `${str(r.rtt_ms)} ms`, true],
      [str(r.retransmits_segments) || loss || '–', true],
      [statusText(r), false],
    ];
    const cls = failed(r) ? ' data-failed' : r.partial === true ? ' data-partial' : '';
    return `<tr${cls}>${cells.map(([c, n]) => `<td${n ? ' class="n"' : ''}>${esc(printable(c, 200))}</td>`).join('')}</tr>`;
  });
  const of = rows.length > LAST_RUNS ? `The last ${LAST_RUNS} of ${rows.length} tests` : `All ${rows.length} test${rows.length === 1 ? '' : 's'}`;
  return (
    `<p class="muted">${of}, newest first.</p><table class="rows"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${body.join('')}</tbody></table>`
  );
}

function chartSection(c: ChartRows, range: [number, number]): string {
  const measured = c.rows.filter((r) => !failed(r));
  const rate = measured.map((r): [number, number] => [timeOf(r), numOrNull(r.wall_clock_bits_per_s) ?? 0]);
  const capacity = c.rows.flatMap((r): [number, number][] => {
    const v = numOrNull(r.capacity_payload_bits_per_s);
    return v === null ? [] : [[timeOf(r), v]];
  });
  const marks: SvgMark[] = c.rows.flatMap((r): SvgMark[] => {
    if (failed(r)) return [{ x: timeOf(r), y: 0, color: FAILED_COLOR, shape: 'cross', detail: `${utc(timeOf(r))}: ${statusText(r)}` }];
    if (r.partial === true)
      return [{ x: timeOf(r), y: numOrNull(r.wall_clock_bits_per_s) ?? 0, color: PARTIAL_COLOR, detail: `${utc(timeOf(r))}: ${statusText(r)}` }];
    return [];
  });
  const { bands, changes } = verdictBands(c.rows, range[1]);
  const axis = timeTicks(range[0], range[1]);
  const direction = c.flow ? `, ${FLOW_WORDS[c.flow] ?? c.flow}` : '';
  const chart = svgLineChart({
    // The section's heading names the peer; the ticks carry the unit (bit/s, decimal, payload).
    title: 'Wall-clock throughput per test',
    xTitle: axis.title,
    yTitle: '',
    series: [
      { label: 'throughput (wall clock)', color: RATE_COLOR, points: rate, dots: true },
      ...(capacity.length ? [{ label: 'path capacity (--capacity)', color: CAPACITY_COLOR, points: capacity, dashed: true, dots: true }] : []),
    ],
    marks,
    bands,
    xRange: range,
    xTicks: axis.ticks,
    xFormat: axis.format,
    yFormat: formatRateTick,
  });
  const nPartial = c.rows.filter((r) => !failed(r) && r.partial === true).length;
  const nFailed = c.rows.filter(failed).length;
  const key =
    `<p class="muted">Shaded: the verdict while it held. ` +
    `<span style="color:${PARTIAL_COLOR}">●</span> partial test (${nPartial}), <span style="color:${FAILED_COLOR}">✕</span> failed test, nothing measured (${nFailed}).` +
    `${changes.length ? ` Verdict changes: ${changes.map(esc).join('; ')}.` : ' The verdict did not change.'}</p>`;
  return `<section data-chart data-peer="${esc(c.peer)}"><h3>${esc(c.peer + direction)}</h3>${chart}${key}${lastRunsTable(c.rows)}</section>`;
}

function groupName(schedule: string | null): string {
  return schedule === null ? 'Started by hand' : `Schedule ${printable(schedule, 64)}`;
}

function rangeOf(rows: readonly HistoryRow[], scope: HistoryFilter): [number, number] {
  const times = rows.map(timeOf).filter((t) => Number.isFinite(t));
  let x0 = scope.from ? Date.parse(scope.from) : Math.min(...times);
  let x1 = scope.to ? Date.parse(scope.to) : Math.max(...times);
  // One test, or all in one instant: half an hour either side, so the dot is not on the axis.
  if (!(x1 > x0)) [x0, x1] = [x0 - 30 * MIN, x0 + 30 * MIN];
  return [x0, x1];
}

/**
 * The whole schedule view as one HTML document: `rows` oldest first, as HistoryStore.rows gives them for `filter`
 * (its schedule names the page; its time range, when given, is the charts' time axis).
 */
export function formatScheduleHtml(rows: readonly HistoryRow[], scope: HistoryFilter): string {
  const title =
    scope.schedule === undefined
      ? 'Longhaul History by schedule'
      : scope.schedule === null
        ? 'Longhaul runs started by hand'
        : `Longhaul schedule ${scope.schedule}`;
  const h1 = `<h1>${esc(scope.schedule ? `Longhaul schedule: ${printable(scope.schedule, 64)}` : title)}</h1>`;
  if (!rows.length) return htmlPage(title, `${h1}<p data-empty>No runs match this filter.</p>`);
  const range = rangeOf(rows, scope);
  const runs = new Set(rows.map((r) => str(r.run_id))).size;
  const peers = [...new Set(rows.map(peerLabel))];
  const groups = new Map<string | null, HistoryRow[]>();
  for (const r of rows) {
    const key = r.schedule === null ? null : str(r.schedule);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const order = [...groups.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)));
  const head =
    `<p data-range>${esc(`${utc(range[0])} to ${utc(range[1])}`)} · ${runs} run${runs === 1 ? '' : 's'} · ${peers.length} peer${peers.length === 1 ? '' : 's'}: ${peers.map(esc).join(', ')}</p>` +
    `<p class="muted">Each point is one test's wall-clock aggregate (all bytes × 8 / first byte to last byte, payload; Mbit = 10^6 bit) in one direction. ` +
    `The capacity is the path's, measured after the test where it ran with --capacity. Times are UTC.</p>`;
  const body = order
    .map((key) => {
      const charts = chartsOf(groups.get(key) ?? []).map((c) => chartSection(c, range));
      return scope.schedule === undefined ? section(groupName(key), charts.join('')) : charts.join('');
    })
    .join('');
  return htmlPage(title, h1 + head + body);
}
