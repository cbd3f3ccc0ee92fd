/**
 * A sweep as CSV: one row per run (in the order they ran) then one per cell,
 * told apart by `row_type`. The conventions of the run CSV (report/csv-report.ts,
 * docs/reports.md): the same encoding (CSV_FORMAT: BOM, CRLF), units in the
 * column names, empty cell = unknown or not applicable (a window or an MSS
 * left to the OS), both throughput conventions: wall-clock aggregate
 * (`received_mbit_per_s`) and per-stream sum (`stream_sum_mbit_per_s`).
 * Columns: docs/sweeps.md. `cell`, `repeat` and `sequence` count from 1, as the
 * Sweep screen and the HTML report number them (the sweep file's indices are 0-based).
 */
import { stringify } from 'csv-stringify/sync';
import type { SweepCellSettings, SweepCellSummary, SweepFile, SweepRunRecord, SweepStats } from '../contract/sweep.js';
import { CSV_FORMAT, noFormulas, num } from '../report/csv-report.js';
import { replaceFileAtomically } from '../report/report-file.js';

const SWEEP_CSV_COLUMNS = [
  'row_type',
  'sweep_id',
  'cell',
  'repeat',
  'sequence',
  'status',
  'runs',
  'planned_runs',
  'direction',
  'streams',
  'buffer_bytes',
  'window_bytes',
  'mss_bytes',
  'link',
  'path',
  'limit_bytes',
  'limit_seconds',
  'run_started_at',
  'run_ended_at',
  'received_mbit_per_s',
  'stream_sum_mbit_per_s',
  'received_mbit_per_s_median',
  'received_mbit_per_s_min',
  'received_mbit_per_s_max',
  'stream_sum_mbit_per_s_median',
  'stream_sum_mbit_per_s_min',
  'stream_sum_mbit_per_s_max',
  'verdicts',
  'error_code',
  'error_message',
  'path_capacity_mbit_per_s',
  'path_capacity_lower_bound',
] as const;

type SweepCsvRow = Partial<Record<(typeof SWEEP_CSV_COLUMNS)[number], string>>;

const mbit = (bps: number | null | undefined): string => (bps === null || bps === undefined ? '' : num(bps / 1e6, 6));

function settingsCells(s: SweepCellSettings): SweepCsvRow {
  const p = s.params;
  return {
    direction: p.direction,
    streams: num(p.streams),
    buffer_bytes: num(p.bufferBytes),
    window_bytes: num(p.windowBytes),
    mss_bytes: num(p.mssBytes),
    link: s.link ?? '',
    path: s.path,
    limit_bytes: num(p.bytes),
    limit_seconds: num(p.seconds),
  };
}

function statCells(prefix: 'received_mbit_per_s' | 'stream_sum_mbit_per_s', s: SweepStats | null): SweepCsvRow {
  return { [`${prefix}_median`]: mbit(s?.median), [`${prefix}_min`]: mbit(s?.min), [`${prefix}_max`]: mbit(s?.max) };
}

function runRow(id: string, r: SweepRunRecord): SweepCsvRow {
  return {
    row_type: 'run',
    sweep_id: id,
    cell: num(r.cell + 1),
    repeat: num(r.repeat + 1),
    sequence: num(r.sequence + 1),
    status: r.status,
    ...settingsCells(r.settings),
    run_started_at: r.startedAt,
    run_ended_at: r.endedAt,
    received_mbit_per_s: mbit(r.bitsPerSecond),
    stream_sum_mbit_per_s: mbit(r.streamSumBitsPerSecond),
    verdicts: r.verdicts.join(' '),
    error_code: r.error?.code ?? '',
    error_message: r.error?.message ?? '',
    // Payload the path carried as the sweep measured it (plan.capacity): the same figure on every run over that path.
    path_capacity_mbit_per_s: mbit(r.result?.capacity?.payloadBitsPerSecond),
    path_capacity_lower_bound: r.result?.capacity?.lowerBound ?? '',
  };
}

function cellRow(id: string, c: SweepCellSummary): SweepCsvRow {
  return {
    row_type: 'cell',
    sweep_id: id,
    cell: num(c.cell + 1),
    runs: num(c.runs),
    planned_runs: num(c.planned),
    ...settingsCells(c.settings),
    ...statCells('received_mbit_per_s', c.bitsPerSecond),
    ...statCells('stream_sum_mbit_per_s', c.streamSumBitsPerSecond),
    verdicts: Object.entries(c.verdicts)
      .map(([v, n]) => `${v}:${n}`)
      .join(' '),
  };
}

/** The whole CSV of a sweep; text cells a spreadsheet would run as formulas (a peer's error message) are guarded as in the run CSV. */
export function formatSweepCsv(f: SweepFile): string {
  const rows = [...f.runs.map((r) => runRow(f.id, r)), ...f.cells.map((c) => cellRow(f.id, c))];
  return CSV_FORMAT.bom + stringify(rows.map(noFormulas), { header: true, columns: [...SWEEP_CSV_COLUMNS], record_delimiter: CSV_FORMAT.recordDelimiter });
}

/** Rewrite the CSV atomically (after every run). Throws LonghaulError. */
export function saveSweepCsv(path: string, f: SweepFile): void {
  replaceFileAtomically(path, formatSweepCsv(f));
}
