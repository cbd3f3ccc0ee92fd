/**
 * Result exporters by format: JSON, CSV, the PetaBumps console log, the
 * ttcp line and the self-contained HTML report, each the same text `longhaul report --format F` prints for the
 * saved result (electron/report/render.ts), so an export from the app and one
 * from the command line of the same result are byte-identical.
 */
import type { ExportFormat } from '../contract/api.js';
import type { GroupExportFormat } from '../contract/group-app.js';
import type { LonghaulGroupResult } from '../contract/group.js';
import type { LonghaulResult } from '../contract/result.js';
import type { HistoryFilter } from '../contract/history.js';
import { formatHistoryCsv, type HistoryRow } from '../report/history-csv.js';
import { renderGroupReport, renderReport } from '../report/render.js';

export interface ExportFile {
  fileName: string;
  mimeType: string;
  text: string;
}

/** Render a result in one of the contract's formats, as `longhaul report --format F` does. */
export function exportAs(r: LonghaulResult, format: ExportFormat): ExportFile {
  const { ext, mimeType } = FILE_TYPES[format];
  return { fileName: `${baseName(r)}.${ext}`, mimeType, text: renderReport(r, format) };
}

/** A file name stem that sorts by time and says what it is. */
function baseName(r: LonghaulResult): string {
  return `longhaul-${r.startedAt.replace(/[:.]/g, '-').replace(/Z$/, 'Z')}-${r.id}`;
}

/** File name extension and MIME type per format (the console log and the ttcp line are plain text). */
const FILE_TYPES: Record<ExportFormat, { ext: string; mimeType: string }> = {
  json: { ext: 'json', mimeType: 'application/json' },
  csv: { ext: 'csv', mimeType: 'text/csv' },
  console: { ext: 'log', mimeType: 'text/plain' },
  ttcp: { ext: 'ttcp.txt', mimeType: 'text/plain' },
  html: { ext: 'html', mimeType: 'text/html' },
};

/** A group in one of its formats: the same text `longhaul report --from group.json --format F` prints. */
export function exportGroupAs(g: LonghaulGroupResult, format: GroupExportFormat): ExportFile {
  const { ext, mimeType } = FILE_TYPES[format];
  const base = `longhaul-group-${g.startedAt.replace(/[:.]/g, '-')}-${g.id}`;
  return { fileName: `${base}.${ext}`, mimeType, text: renderGroupReport(g, format) };
}

/** History's runs as one CSV (report/history-csv.ts), named after the filter: `longhaul-history-lab-2026-12-01T08-00-00Z.csv`. */
export function exportHistoryCsv(rows: readonly HistoryRow[], filter: HistoryFilter | null): ExportFile {
  const stamp = (iso: string): string =>
    new Date(iso)
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replace(/:/g, '-');
  const parts = [
    filter?.schedule === null ? 'manual' : filter?.schedule !== undefined ? filter.schedule.replace(/[^A-Za-z0-9._-]/g, '_') : 'all',
    ...(filter?.from !== undefined ? [`from-${stamp(filter.from)}`] : []),
    ...(filter?.to !== undefined ? [`to-${stamp(filter.to)}`] : []),
  ];
  return { fileName: `longhaul-history-${parts.join('-')}.csv`, mimeType: FILE_TYPES.csv.mimeType, text: formatHistoryCsv(rows) };
}
