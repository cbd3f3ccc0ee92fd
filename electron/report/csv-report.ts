/**
 * The CSV report (`--csv FILE`, `longhaul report --format csv`, the app's CSV
 * export): RFC 4180 via csv-stringify, one file, one header row, one row per
 * stream per interval and then the summary rows (one per stream, one per
 * direction total, one total), told apart by `row_type`. Layout and column
 * meanings: docs/reports.md.
 *
 * The bytes, the same for every writer (CSV_FORMAT): UTF-8 with a byte-order
 * mark, because Excel on Windows reads a CSV without one in the ANSI code page
 * and garbles every non-ASCII character (host names, error messages: "µs",
 * "→"); CRLF line ends, as RFC 4180 says. Cells never depend on the locale:
 * `.` decimals, no thousands separators, ISO 8601 UTC timestamps, empty cell =
 * unknown or not applicable. A text cell a spreadsheet would run as a formula
 * gets a leading `'`; a number (even a negative one) never does.
 */
import { stringify } from 'csv-stringify/sync';
import { answerOf, resultLine } from '../contract/answer-text.js';
import type { IntervalTotals } from './interval-totals.js';
import type { Diagnosis, EndView, IntervalResult, IntervalStream, LonghaulResult, ResultParams, StreamResult, TotalResult } from '../contract/result.js';
import { lossShare, type UdpInterval } from '../contract/udp.js';

/** Rates in Mbit/s carry this many decimals: 1 kbit/s, finer than any interval's timing resolves. */
const RATE_DECIMALS = 3;

export const CSV_COLUMNS = [
  'row_type',
  'run_started_at',
  'time_utc',
  'partial',
  'partial_reason',
  'direction',
  'streams',
  'buffer_bytes',
  'window_bytes',
  'mss_requested_bytes',
  'bitrate_per_stream_mbit_per_s',
  'pacing_mechanism',
  'limit_bytes',
  'limit_seconds',
  'sample_interval_seconds',
  'controller_host',
  'responder_host',
  'stream_id',
  'sender',
  'interval_index',
  't_start_seconds',
  't_end_seconds',
  'duration_seconds',
  'controller_t_seconds',
  'responder_t_seconds',
  'sent_bytes',
  'received_bytes',
  'receive_completions',
  'sent_mbit_per_s',
  'received_mbit_per_s',
  'stream_sum_mbit_per_s',
  'partial_seconds',
  'partial_mbit_per_s',
  'sender_seconds',
  'sender_mss_bytes',
  'path_mtu_bytes',
  'error_code',
  'error_message',
  'retransmits_segments',
  'retransmits_estimated',
  'cwnd_at_end_bytes',
  'omitted',
  'idle_rtt_ms',
  'loaded_rtt_ms',
  'queueing_ms',
  'capacity_payload_mbit_per_s',
  'capacity_wire_mbit_per_s',
  'capacity_lower_bound',
  'congestion_control',
  'cpu_controller_percent_of_core',
  'cpu_responder_percent_of_core',
  'verdict',
  'case',
  'answer',
  'change',
  'protocol',
  'udp_arrived_datagrams',
  'udp_lost_datagrams',
  'udp_loss_percent',
  'udp_out_of_order_datagrams',
  'udp_duplicate_datagrams',
  'udp_jitter_ms',
  'udp_sender_short_bytes',
  'udp_receiver_dropped_datagrams',
] as const;

type CsvColumn = (typeof CSV_COLUMNS)[number];
export type CsvRow = Partial<Record<CsvColumn, string>>;

/** What every row repeats about its run, so rows of many runs can share one sheet. */
export interface CsvRunContext {
  params: ResultParams;
  /** The run's start, wall clock; interval timestamps are this plus the interval's `t`. */
  startedAt: Date;
  /** Sender of each stream id. */
  senders: ReadonlyMap<number, string>;
}

/** A number as a plain decimal string (never exponent, never grouped); '' for unknown. */
export function num(n: number | null | undefined, digits?: number): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '';
  // Six decimals at most, trailing zeros dropped; String() never uses an exponent for 1e-6 <= |n| < 1e21.
  if (digits === undefined) return String(Number(n.toFixed(6)));
  return n.toFixed(digits);
}

function mbit(bytes: number | null, seconds: number | null): string {
  return bytes === null || seconds === null || !(seconds > 0) ? '' : num((bytes * 8) / seconds / 1e6, RATE_DECIMALS);
}

function runCells(c: CsvRunContext): CsvRow {
  const p = c.params;
  return {
    run_started_at: c.startedAt.toISOString(),
    direction: p.direction,
    streams: num(p.streams),
    buffer_bytes: num(p.bufferBytes),
    window_bytes: num(p.windowBytes),
    mss_requested_bytes: num(p.mssBytes),
    bitrate_per_stream_mbit_per_s: p.bitrateBitsPerSec ? num(p.bitrateBitsPerSec / 1e6, RATE_DECIMALS) : '',
    limit_bytes: num(p.bytes),
    limit_seconds: num(p.seconds),
    sample_interval_seconds: num(p.intervalSeconds),
    protocol: p.protocol ?? 'tcp',
  };
}

/**
 * A UDP receiver's counts (an interval's, a stream's with its tail, a total's): arrived, lost, the
 * loss share of arrived + lost, order, duplicates, jitter, the receiving PC's own drops. Empty for TCP and wherever unknown (an
 * iperf3 peer's out-of-order count, an interval the receiver did not report).
 */
function udpCells(u: (UdpInterval & { bytes?: number; receiverDrops?: number | null }) | undefined, shortBytes?: number | null): CsvRow {
  if (!u) return {};
  const share = lossShare(u);
  return {
    udp_arrived_datagrams: num(u.datagrams),
    udp_lost_datagrams: num(u.lost),
    udp_loss_percent: share === null ? '' : num(share * 100, 3),
    udp_out_of_order_datagrams: num(u.outOfOrder),
    udp_duplicate_datagrams: num(u.duplicates),
    udp_jitter_ms: num(u.jitterMs, 3),
    ...(shortBytes !== undefined ? { udp_sender_short_bytes: num(shortBytes) } : {}),
    // Stream and total rows of results that know it: of the lost, those the receiving PC's OS dropped at its sockets.
    ...(u.receiverDrops !== undefined ? { udp_receiver_dropped_datagrams: num(u.receiverDrops) } : {}),
  };
}

/** How every CSV Longhaul writes is encoded (docs/reports.md, "CSV"). One copy, for every writer. */
export const CSV_FORMAT = {
  /** U+FEFF first: Excel then reads the file as UTF-8. */
  bom: '\uFEFF',
  /** RFC 4180's CRLF; Excel, LibreOffice, pandas and csv-parse read it (and LF) alike. */
  recordDelimiter: '\r\n',
} as const;

/** The header row, after the byte-order mark. `columns`: another layout built on these rules (group-csv.ts). */
export function csvHeader(columns: readonly string[] = CSV_COLUMNS): string {
  return CSV_FORMAT.bom + stringify([], { header: true, columns: [...columns], record_delimiter: CSV_FORMAT.recordDelimiter });
}

/** RFC 4180 text for rows (no header), in the order of `columns`. */
export function csvRows(rows: Record<string, string | undefined>[], columns: readonly string[] = CSV_COLUMNS): string {
  return stringify(rows.map(noFormulas), { columns: [...columns], record_delimiter: CSV_FORMAT.recordDelimiter });
}

const PLAIN_NUMBER = /^-?[0-9]+(\.[0-9]+)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A `'` before text a spreadsheet would take for a formula (`=…`, `+…`, `-…`,
 * `@…`), as csv-stringify's `escape_formulas` does, except for plain numbers:
 * a receiver's first byte slightly before its start (`-0.000123` s) must stay a number.
 */
export function noFormulas<R extends Record<string, string | undefined>>(row: R): R {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] = v !== undefined && FORMULA_START.test(v) && !PLAIN_NUMBER.test(v) ? `'${v}` : v;
  }
  return out as R;
}

/** The sender's retransmits in the interval and cwnd at its end; empty = unknown (never 0 for unknown). */
function intervalTcpCells(s: IntervalStream): CsvRow {
  const known = s.retransSegments !== null && s.retransSegments !== undefined;
  return {
    retransmits_segments: num(s.retransSegments),
    retransmits_estimated: known ? String(s.retransSource === 'estimated') : '',
    cwnd_at_end_bytes: num(s.cwndBytes),
  };
}

/** One row per stream for one interval: both ends' views, each side's own clock. */
export function intervalRows(c: CsvRunContext, iv: IntervalResult): CsvRow[] {
  const start = iv.t - iv.seconds;
  const at = new Date(c.startedAt.getTime() + iv.t * 1000).toISOString();
  const run = runCells(c); // once per interval, not per stream: at -i 0.1 this is the live CSV's main cost
  return iv.streams.map((s) => ({
    ...run,
    row_type: 'interval',
    time_utc: at,
    stream_id: num(s.id),
    sender: c.senders.get(s.id) ?? '',
    interval_index: num(iv.index),
    t_start_seconds: num(start, 6),
    t_end_seconds: num(iv.t, 6),
    duration_seconds: num(iv.seconds, 6),
    controller_t_seconds: num(iv.controllerT, 6),
    responder_t_seconds: num(iv.responderT, 6),
    sent_bytes: num(s.sentBytes),
    received_bytes: num(s.receivedBytes),
    receive_completions: num(s.receiveCompletions),
    sent_mbit_per_s: mbit(s.sentBytes, iv.seconds),
    received_mbit_per_s: mbit(s.receivedBytes, iv.seconds),
    ...intervalTcpCells(s),
    ...udpCells(s.udp),
    omitted: String(Boolean(iv.omitted)),
  }));
}

function errorCells(views: (EndView | null)[]): CsvRow {
  const e = views.find((v) => v?.error)?.error;
  return e ? { error_code: e.code, error_message: e.message } : {};
}

/** The verdict cells of one direction's rows: its verdict, case and answer line ('' where not diagnosed). */
function verdictCells(d: Diagnosis | undefined, x: StreamResult | TotalResult): CsvRow {
  return d ? { verdict: d.verdict, case: d.case ?? '', answer: resultLine(d, x.bitsPerSecond, x.partialRate) } : {};
}

/** A partial run's rate over the seconds measured (PartialRate); empty in a complete run or where nothing was measured. */
function partialCells(x: StreamResult | TotalResult): CsvRow {
  const p = x.partialRate;
  return p ? { partial_seconds: num(p.seconds, 6), partial_mbit_per_s: num(p.bitsPerSecond / 1e6, RATE_DECIMALS) } : {};
}

function streamRow(base: CsvRow, s: StreamResult, d: Diagnosis | undefined): CsvRow {
  return {
    ...base,
    ...verdictCells(d, s),
    ...partialCells(s),
    congestion_control: s.send?.socket?.congestionControl ?? '',
    row_type: 'stream',
    stream_id: num(s.id),
    sender: s.sender,
    t_start_seconds: num(s.receive?.firstT, 6),
    t_end_seconds: num(s.receive?.lastT, 6),
    duration_seconds: num(s.seconds, 6),
    sent_bytes: num(s.send?.bytes),
    received_bytes: num(s.bytes),
    receive_completions: num(s.completions),
    sent_mbit_per_s: mbit(s.send?.bytes ?? null, s.send?.seconds ?? null),
    received_mbit_per_s: mbit(s.bytes, s.seconds),
    sender_seconds: num(s.send?.seconds, 6),
    sender_mss_bytes: num(s.send?.socket?.sndMssBytes),
    path_mtu_bytes: num(s.send?.socket?.pmtuBytes),
    ...udpCells(s.udp, s.udp?.shortBytes ?? null),
    ...errorCells([s.send, s.receive]),
  };
}

function totalRow(base: CsvRow, rowType: string, t: TotalResult): CsvRow {
  return {
    ...base,
    row_type: rowType,
    duration_seconds: num(t.seconds, 6),
    sent_bytes: num(t.sentBytes),
    received_bytes: num(t.bytes),
    receive_completions: num(t.completions),
    received_mbit_per_s: t.bitsPerSecond === null ? '' : num(t.bitsPerSecond / 1e6, RATE_DECIMALS),
    stream_sum_mbit_per_s: t.streamSumBitsPerSecond === null ? '' : num(t.streamSumBitsPerSecond / 1e6, RATE_DECIMALS),
    ...partialCells(t),
    ...udpCells(t.udp),
  };
}

/** The context of a saved result. */
export function csvContextOf(r: LonghaulResult): CsvRunContext {
  return { params: r.params, startedAt: new Date(r.startedAt), senders: new Map(r.streams.map((s) => [s.id, s.sender])) };
}

/** The summary rows of a finished (or failed) run. */
export function summaryRows(r: LonghaulResult): CsvRow[] {
  const base: CsvRow = {
    ...runCells(csvContextOf(r)),
    time_utc: r.endedAt,
    partial: String(r.partial),
    partial_reason: r.partialReason ?? '',
    controller_host: r.controller.hostname,
    responder_host: r.responder.hostname,
    // How each sending side paced (--bitrate): `controller: kernel SO_MAX_PACING_RATE`, sides joined by "; ".
    pacing_mechanism: r.pacing ? r.pacing.sides.map((s) => `${s.side}: ${s.mechanism}`).join('; ') : '',
    // Delay under load (result `delay`): the run's, on every summary row; empty = unknown.
    idle_rtt_ms: num(r.delay?.idleRttMs, 3),
    loaded_rtt_ms: num(r.delay?.loadedRttMs, 3),
    queueing_ms: num(r.delay?.queueingMs, 3),
    // The path's capacity (--capacity): Mbit/s, and the floor's reason; empty when not measured.
    capacity_payload_mbit_per_s: num(r.capacity?.payloadBitsPerSecond == null ? null : r.capacity.payloadBitsPerSecond / 1e6, 3),
    capacity_wire_mbit_per_s: num(r.capacity?.wireBitsPerSecond == null ? null : r.capacity.wireBitsPerSecond / 1e6, 3),
    capacity_lower_bound: r.capacity?.lowerBound ?? '',
    // CPU per side over the transfer, percent of one core as iperf3 counts it; empty = not measured.
    cpu_controller_percent_of_core: num(r.cpu?.controller ? r.cpu.controller.shareOfOneCore * 100 : null, 1),
    cpu_responder_percent_of_core: num(r.cpu?.responder ? r.cpu.responder.shareOfOneCore * 100 : null, 1),
  };
  const diagnosisOf = (sender: string): Diagnosis | undefined =>
    r.diagnosis?.find((d) => d.direction === (sender === 'controller' ? 'controllerToResponder' : 'responderToController'));
  const rows = r.streams.map((s) => streamRow(base, s, diagnosisOf(s.sender)));
  if (r.directions.controllerToResponder && r.directions.responderToController) {
    for (const [row, dir] of [
      ['total_controller_to_responder', 'controllerToResponder'],
      ['total_responder_to_controller', 'responderToController'],
    ] as const) {
      const t = r.directions[dir];
      const d = r.diagnosis?.find((x) => x.direction === dir);
      if (t) rows.push({ ...totalRow(base, row, t), ...verdictCells(d, t) });
    }
  }
  const firstError = r.errors[0];
  const answer = answerOf(r, 'terminal');
  const ccs = [...new Set(r.streams.map((s) => s.send?.socket?.congestionControl).filter((x): x is string => Boolean(x)))];
  rows.push({
    ...totalRow(base, 'total', r.total),
    ...verdictCells(r.diagnosis?.[0], r.total),
    ...(r.diagnosis && r.diagnosis.length > 1 ? { answer: answer.results.join(' | ') } : {}),
    change: answer.change ?? '',
    congestion_control: ccs.join('; '),
    ...(firstError ? { error_code: firstError.code, error_message: firstError.message } : {}),
  });
  return rows;
}

/** Provisional summary kept at the end of a live CSV until the run finishes: one `total` row marked partial. */
export function provisionalRows(c: CsvRunContext, totals: IntervalTotals): CsvRow[] {
  const last = totals.last;
  const sent = totals.sentBytes;
  const received = totals.receivedBytes;
  const seconds = last ? last.t : null;
  return [
    {
      ...runCells(c),
      row_type: 'total',
      time_utc: last ? new Date(c.startedAt.getTime() + last.t * 1000).toISOString() : '',
      partial: 'true',
      partial_reason: `run still going or interrupted after interval ${last?.index ?? 0}; totals from the interval rows`,
      duration_seconds: num(seconds, 6),
      sent_bytes: num(sent),
      received_bytes: num(received),
      received_mbit_per_s: mbit(received, seconds),
    },
  ];
}

/** The whole CSV of a saved result. */
export function formatCsv(r: LonghaulResult): string {
  const c = csvContextOf(r);
  return csvHeader() + csvRows([...r.intervals.flatMap((iv) => intervalRows(c, iv)), ...summaryRows(r)]);
}
