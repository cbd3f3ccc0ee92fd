/** Re-render a saved result or group in any report format (`longhaul report`, the app's export). */
import { EXPORT_FORMATS, type ExportFormat } from '../contract/api.js';
import type { GroupExportFormat } from '../contract/group-app.js';
import type { LonghaulGroupResult } from '../contract/group.js';
import type { LonghaulResult } from '../contract/result.js';
import { LonghaulError } from '../util/errors.js';
import { jsonDocument } from '../util/json-chunks.js';
import { formatConsoleLog } from './console-log.js';
import { formatCsv } from './csv-report.js';
import { formatGroupCsv } from './group-csv.js';
import { formatGroupConsoleLog } from './group-log.js';
import { formatHtmlReport } from './html-report.js';
import { formatTtcp } from './ttcp.js';

/** The formats `longhaul report` and the app's export share: one list, the contract's. */
export const REPORT_FORMATS = EXPORT_FORMATS;
export type ReportFormat = ExportFormat;

/** The report in pieces: JSON may be longer than the longest string V8 builds (an hour-long result), the others are one piece. */
export function renderReportPieces(r: LonghaulResult, format: ReportFormat): Iterable<string> {
  return format === 'json' ? jsonDocument(r) : [renderReport(r, format)];
}

/** The report text; JSON is the result itself, pretty-printed. */
export function renderReport(r: LonghaulResult, format: ReportFormat): string {
  switch (format) {
    case 'console':
      return formatConsoleLog(r);
    case 'ttcp':
      return formatTtcp(r);
    case 'csv':
      return formatCsv(r);
    case 'json':
      return JSON.stringify(r, null, 2) + '\n';
    case 'html':
      return formatHtmlReport(r);
  }
}

/**
 * A group's report: its console log (every peer's, then the aggregate table), its CSV, or
 * the document. A ttcp line is one run's figure: a group has one per peer, in each peer's result.
 */
export function renderGroupReport(g: LonghaulGroupResult, format: ReportFormat | GroupExportFormat): string {
  switch (format) {
    case 'console':
      return formatGroupConsoleLog(g);
    case 'csv':
      return formatGroupCsv(g);
    case 'json':
      return JSON.stringify(g, null, 2) + '\n';
    case 'ttcp':
      throw new LonghaulError(
        'LH_ERR_BAD_ARGUMENT',
        "a ttcp line is one run's figure; a group has one per peer: use --format console (every peer's log and the aggregate) or csv",
      );
    case 'html':
      throw new LonghaulError(
        'LH_ERR_BAD_ARGUMENT',
        "the HTML report is one run's: render each peer's result (in the group file) on its own, or use --format console",
      );
  }
}
