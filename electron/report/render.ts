/** Re-render a saved result in any report format (`longhaul report`, the app's export). */
import type { LonghaulResult } from '../contract/result.js';
import { jsonDocument } from '../util/json-chunks.js';
import { formatConsoleLog } from './console-log.js';
import { formatCsv } from './csv-report.js';
import { formatTtcp } from './ttcp.js';

export const REPORT_FORMATS = ['console', 'ttcp', 'csv', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

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
  }
}
