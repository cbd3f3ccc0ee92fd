/**
 * Many runs in one sheet (`longhaul history --format csv|json`, History's "Export these as CSV"):
 * one row per run and measured direction — a `--bidir` run has two, told apart by `flow` — with the
 * run's schedule and slot, its figures and its verdict. Columns: docs/schedules.md.
 *
 * The rules of every CSV Longhaul writes (report/csv-report.ts: BOM, CRLF, a `'` before a text
 * cell a spreadsheet would run as a formula, numbers as plain decimals) apply through its
 * `csvHeader` and `csvRows`. A figure the run did not measure is an empty cell (JSON: null), never 0.
 */
import type { LonghaulResult, TotalResult } from '../contract/result.js';
import { lossShare } from '../contract/udp.js';
import { csvHeader, csvRows, num } from './csv-report.js';
import type { ResultHead } from './result-file.js';

export const HISTORY_CSV_COLUMNS = [
  'run_id',
  'started_at_utc',
  'schedule',
  'slot',
  'written_by',
  'controller_host',
  'responder_host',
  'responder_address',
  'link',
  'protocol',
  'direction',
  'flow',
  'streams',
  'duration_seconds',
  'received_bytes',
  'wall_clock_bits_per_s',
  'stream_sum_bits_per_s',
  'partial',
  'partial_reason',
  'error_code',
  'verdict',
  'case',
  'rtt_ms',
  'retransmits_segments',
  'udp_loss_percent',
  'udp_jitter_ms',
  'capacity_payload_bits_per_s',
] as const;

type HistoryColumn = (typeof HISTORY_CSV_COLUMNS)[number];

/** One row: numbers as numbers, null where not measured or not applicable (the CSV's empty cell). */
export type HistoryRow = Record<HistoryColumn, string | number | boolean | null>;

/** The path directions a result measured, in the order its totals hold them. */
const FLOWS = [
  ['controllerToResponder', 'controller_to_responder'],
  ['responderToController', 'responder_to_controller'],
] as const;

/** A figure rounded to `digits` decimals, or null when not measured. */
function round(n: number | null | undefined, digits: number): number | null {
  if (n === null || n === undefined || !Number.isFinite(n)) return null;
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/**
 * The partner's address as History names it: through the link emulator the controller dialled
 * the local proxy, so the link's target is the real partner (empty when an older result lacks it).
 */
function partnerAddress(r: Pick<LonghaulResult, 'responder' | 'link'>): string {
  return r.link ? (r.link.target ?? '') : r.responder.address;
}

/** The rows of one stored run (its head is enough: no interval is read). */
export function historyRows(r: ResultHead): HistoryRow[] {
  const udp = r.params.protocol === 'udp';
  const run = {
    run_id: r.id,
    started_at_utc: new Date(r.startedAt).toISOString(),
    schedule: r.schedule?.name ?? null,
    slot: r.schedule?.slot ?? null,
    written_by: r.writtenBy,
    controller_host: r.controller.hostname,
    responder_host: r.responder.hostname,
    responder_address: partnerAddress(r),
    link: r.link ? (r.link.preset ?? 'custom') : null,
    protocol: udp ? 'udp' : 'tcp',
    direction: r.params.direction,
    streams: r.params.streams,
    partial: r.partial,
    partial_reason: r.partialReason,
    error_code: r.errors[0]?.code ?? null,
    capacity_payload_bits_per_s: round(r.capacity?.payloadBitsPerSecond, 0),
  } as const;
  const measured = FLOWS.filter(([key]) => r.directions[key] !== undefined);
  // A run that moved nothing in any direction still has its row: when and why it failed.
  if (measured.length === 0) return [{ ...run, ...flowCells(null, r.total, null, udp) }];
  return measured.map(([key, flow]) => ({
    ...run,
    ...flowCells(flow, r.directions[key] ?? r.total, r.diagnosis?.find((d) => d.direction === key) ?? null, udp),
  }));
}

function flowCells(
  flow: string | null,
  t: TotalResult,
  d: NonNullable<LonghaulResult['diagnosis']>[number] | null,
  udp: boolean,
): Pick<
  HistoryRow,
  | 'flow'
  | 'duration_seconds'
  | 'received_bytes'
  | 'wall_clock_bits_per_s'
  | 'stream_sum_bits_per_s'
  | 'verdict'
  | 'case'
  | 'rtt_ms'
  | 'retransmits_segments'
  | 'udp_loss_percent'
  | 'udp_jitter_ms'
> {
  const loss = t.udp ? lossShare(t.udp) : null;
  return {
    flow,
    duration_seconds: round(t.seconds, 6),
    received_bytes: t.bytes,
    wall_clock_bits_per_s: round(t.bitsPerSecond, 0),
    stream_sum_bits_per_s: round(t.streamSumBitsPerSecond, 0),
    verdict: d?.verdict ?? null,
    case: d?.case ?? null,
    rtt_ms: round(d?.numbers.rttSeconds == null ? null : d.numbers.rttSeconds * 1000, 3),
    // UDP has no retransmits: an empty cell, not the 0 a TCP run can really have.
    retransmits_segments: udp ? null : (d?.numbers.retransSegments ?? null),
    udp_loss_percent: round(loss === null ? null : loss * 100, 3),
    udp_jitter_ms: round(t.udp?.jitterMs, 3),
  };
}

/** A typed cell as CSV text: '' for null, plain decimals, `true`/`false`. */
function cell(v: string | number | boolean | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return num(v);
  return String(v);
}

/** The whole CSV of these rows. */
export function formatHistoryCsv(rows: readonly HistoryRow[]): string {
  const text = rows.map((r) => Object.fromEntries(HISTORY_CSV_COLUMNS.map((c) => [c, cell(r[c])])));
  return csvHeader(HISTORY_CSV_COLUMNS) + csvRows(text, HISTORY_CSV_COLUMNS);
}
