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
import { renderGroupReport, renderReport } from '../report/render.js';
import { LonghaulError } from '../util/errors.js';

export interface ExportFile {
  fileName: string;
  mimeType: string;
  text: string;
}

type Exporter = (r: LonghaulResult) => ExportFile;

const exporters = new Map<ExportFormat, Exporter>();

/** Add (or replace) the exporter of a format. */
function registerExporter(format: ExportFormat, fn: Exporter): void {
  exporters.set(format, fn);
}

/** Which formats this build can export. */
export function availableFormats(): Record<ExportFormat, boolean> {
  return { json: exporters.has('json'), csv: exporters.has('csv'), console: exporters.has('console'), ttcp: exporters.has('ttcp'), html: exporters.has('html') };
}

/** Render a result in a format; `LH_ERR_NOT_AVAILABLE` when this build has no exporter for it. */
export function exportAs(r: LonghaulResult, format: ExportFormat): ExportFile {
  const fn = exporters.get(format);
  if (!fn) throw new LonghaulError('LH_ERR_NOT_AVAILABLE', `exporting as ${format} is not available in this build`);
  return fn(r);
}

/** A file name stem that sorts by time and says what it is. */
export function baseName(r: LonghaulResult): string {
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

for (const format of Object.keys(FILE_TYPES) as ExportFormat[]) {
  const { ext, mimeType } = FILE_TYPES[format];
  registerExporter(format, (r) => ({ fileName: `${baseName(r)}.${ext}`, mimeType, text: renderReport(r, format) }));
}

/** A group in one of its formats: the same text `longhaul report --from group.json --format F` prints. */
export function exportGroupAs(g: LonghaulGroupResult, format: GroupExportFormat): ExportFile {
  const { ext, mimeType } = FILE_TYPES[format];
  const base = `longhaul-group-${g.startedAt.replace(/[:.]/g, '-')}-${g.id}`;
  return { fileName: `${base}.${ext}`, mimeType, text: renderGroupReport(g, format) };
}
