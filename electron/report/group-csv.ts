/**
 * The CSV of a multi-peer run: every peer's own rows (the single-run layout,
 * csv-report.ts) with a `peer` column in front, then the aggregate rows
 * (`group_interval` per interval, `group_total` and per direction), whose
 * `peer` is `all`. Same encoding, same cell rules: csv-report.ts holds them.
 * The three conventions: received_mbit_per_s is the wall-clock aggregate,
 * stream_sum_mbit_per_s the per-stream sum, peer_sum_mbit_per_s the per-peer sum.
 */
import { peerLabel, type GroupTotal, type LonghaulGroupResult } from '../contract/group.js';
import { CSV_COLUMNS, csvContextOf, csvHeader, csvRows, intervalRows, num, summaryRows, type CsvRow } from './csv-report.js';

const GROUP_CSV_COLUMNS = ['peer', ...CSV_COLUMNS, 'peer_sum_mbit_per_s'] as const;

type GroupCsvRow = CsvRow & { peer?: string; peer_sum_mbit_per_s?: string };

function mbit(bps: number | null): string {
  return bps === null ? '' : num(bps / 1e6, 6);
}

function totalRow(g: LonghaulGroupResult, rowType: string, t: GroupTotal): GroupCsvRow {
  const firstError = g.errors.find((e) => e.peer === null) ?? g.errors[0];
  return {
    peer: 'all',
    row_type: rowType,
    run_started_at: g.startedAt,
    time_utc: g.endedAt,
    partial: String(g.partial),
    partial_reason: g.partialReason ?? '',
    direction: g.params.direction,
    streams: num(g.params.streams),
    duration_seconds: num(t.seconds, 6),
    sent_bytes: num(t.sentBytes),
    received_bytes: num(t.bytes),
    received_mbit_per_s: mbit(t.bitsPerSecond),
    stream_sum_mbit_per_s: mbit(t.streamSumBitsPerSecond),
    peer_sum_mbit_per_s: mbit(t.peerSumBitsPerSecond),
    ...(firstError ? { error_code: firstError.code, error_message: firstError.message } : {}),
  };
}

/** The aggregate rows: one per interval (empty bytes = unknown: a peer's figure is missing), then the totals. */
function groupAggregateRows(g: LonghaulGroupResult): GroupCsvRow[] {
  const rows: GroupCsvRow[] = g.intervals.map((iv) => ({
    peer: 'all',
    row_type: 'group_interval',
    run_started_at: g.startedAt,
    direction: g.params.direction,
    streams: num(g.params.streams),
    interval_index: num(iv.index),
    t_start_seconds: num(iv.t - iv.seconds, 6),
    t_end_seconds: num(iv.t, 6),
    duration_seconds: num(iv.seconds, 6),
    received_bytes: num(iv.receivedBytes),
    received_mbit_per_s: iv.receivedBytes === null || !(iv.seconds > 0) ? '' : num((iv.receivedBytes * 8) / iv.seconds / 1e6, 6),
  }));
  const c2r = g.directions.controllerToResponder;
  const r2c = g.directions.responderToController;
  if (c2r && r2c) rows.push(totalRow(g, 'group_total_controller_to_responder', c2r), totalRow(g, 'group_total_responder_to_controller', r2c));
  rows.push(totalRow(g, 'group_total', g.total));
  return rows;
}

/** The whole CSV of a group. */
export function formatGroupCsv(g: LonghaulGroupResult): string {
  const peerRows = g.peers.flatMap((p) => {
    const c = csvContextOf(p.result);
    const rows = [...p.result.intervals.flatMap((iv) => intervalRows(c, iv)), ...summaryRows(p.result)];
    return rows.map((r): GroupCsvRow => ({ peer: peerLabel(p), ...r }));
  });
  return csvHeader(GROUP_CSV_COLUMNS) + csvRows([...peerRows, ...groupAggregateRows(g)], GROUP_CSV_COLUMNS);
}
