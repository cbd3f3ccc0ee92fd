/**
 * A sweep in each format it has (`longhaul report --from sweep.json`, the
 * Sweep screen's and History's exports): its own JSON, one CSV row per run
 * and per cell, or the self-contained HTML report. The one place that maps a
 * format to its text, file name and type, so the CLI and the app agree.
 */
import type { SweepExportFormat } from '../contract/sweep-app.js';
import type { SweepFile } from '../contract/sweep.js';
import { formatSweepHtml } from '../report/sweep-html.js';
import { LonghaulError } from '../util/errors.js';
import { formatSweepCsv } from './sweep-csv.js';

const TYPES: Record<SweepExportFormat, { ext: string; mimeType: string }> = {
  json: { ext: 'json', mimeType: 'application/json' },
  csv: { ext: 'csv', mimeType: 'text/csv' },
  html: { ext: 'html', mimeType: 'text/html' },
};

/** The text of a sweep in `format`; a run-only format (console, ttcp) is refused with what to use instead. */
export function renderSweepReport(f: SweepFile, format: string): string {
  switch (format) {
    case 'json':
      return JSON.stringify(f, null, 2) + '\n';
    case 'csv':
      return formatSweepCsv(f);
    case 'html':
      return formatSweepHtml(f);
    default:
      throw new LonghaulError(
        'LH_ERR_BAD_ARGUMENT',
        `a sweep has no ${format} form (that is one run's: each run's result is inside the sweep file); use --format html, csv or json`,
      );
  }
}

/** The sweep as a file to save: name from its start time, type from the format. */
export function sweepExportFile(f: SweepFile, format: SweepExportFormat): { fileName: string; mimeType: string; text: string } {
  const base = `longhaul-sweep-${f.startedAt.replace(/[:.]/g, '-')}`;
  return { fileName: `${base}.${TYPES[format].ext}`, mimeType: TYPES[format].mimeType, text: renderSweepReport(f, format) };
}
