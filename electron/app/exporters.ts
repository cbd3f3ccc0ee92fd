/**
 * Result exporters by format. JSON is built in; the report formats (CSV,
 * console log, ttcp line) come with the reports work (issue 4), which
 * registers them here — until then `available()` says they are missing and
 * the UI disables their buttons.
 */
import type { ExportFormat } from '../contract/api.js';
import type { LonghaulResult } from '../contract/result.js';
import { LonghaulError } from '../util/errors.js';

export interface ExportFile {
  fileName: string;
  mimeType: string;
  text: string;
}

type Exporter = (r: LonghaulResult) => ExportFile;

const exporters = new Map<ExportFormat, Exporter>();

/** Add (or replace) the exporter of a format. */
export function registerExporter(format: ExportFormat, fn: Exporter): void {
  exporters.set(format, fn);
}

/** Which formats this build can export. */
export function availableFormats(): Record<ExportFormat, boolean> {
  return { json: exporters.has('json'), csv: exporters.has('csv'), console: exporters.has('console'), ttcp: exporters.has('ttcp') };
}

/** Render a result in a format; `LH_ERR_NOT_AVAILABLE` when this build has no exporter for it. */
export function exportAs(r: LonghaulResult, format: ExportFormat): ExportFile {
  const fn = exporters.get(format);
  if (!fn) throw new LonghaulError('LH_ERR_NOT_AVAILABLE', `exporting as ${format} is not available in this build (it comes with the reports feature)`);
  return fn(r);
}

/** A file name stem that sorts by time and says what it is. */
export function baseName(r: LonghaulResult): string {
  return `longhaul-${r.startedAt.replace(/[:.]/g, '-').replace(/Z$/, 'Z')}-${r.id}`;
}

registerExporter('json', (r) => ({
  fileName: `${baseName(r)}.json`,
  mimeType: 'application/json',
  text: JSON.stringify(r, null, 2) + '\n',
}));
