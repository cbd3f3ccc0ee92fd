import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { exportAs } from '../../electron/app/exporters.js';
import { CSV_COLUMNS, CSV_FORMAT, formatCsv } from '../../electron/report/csv-report.js';
import { renderReport } from '../../electron/report/render.js';
import { makeIntervals, makeResult, recordRun } from '../helpers/result-fixtures.js';
import { diagnoseResult } from '../../electron/analysis/diagnosis.js';
import { adviseResult } from '../../electron/analysis/advice/advise.js';
import { answerOf } from '../../electron/contract/answer-text.js';
import { DIAGNOSIS_CASES } from '../../electron/contract/finding.js';
import type { CpuUse } from '../../electron/contract/result.js';
import { formatRate } from '../../electron/contract/units.js';

function cpuUse(shareOfOneCore: number): CpuUse {
  return { shareOfOneCore, userSeconds: shareOfOneCore, systemSeconds: 0, wallSeconds: 1, cores: 2, shareOfPc: shareOfOneCore / 2, threads: null };
}

type Row = Record<string, string>;

function parseCsv(text: string): Row[] {
  return parse(text, { columns: true, bom: true, record_delimiter: '\r\n', relax_column_count: false }) as Row[];
}

describe('CSV report', { timeout: 10_000 }, () => {
  const result = makeResult({
    streams: [
      { bytes: 3_000_000, seconds: 2.5, completions: 46 },
      { bytes: 1_500_000, seconds: 3, completions: 23, firstT: 0.1 },
    ],
    intervals: makeIntervals([
      { t: 1, received: [1_000_000, 500_000], sent: [1_100_000, 500_000] },
      { t: 2, received: [1_000_000, 500_000] },
      { t: 3.1, received: [1_000_000, 500_000] },
    ]),
    partialReason: 'responder: "disk", then, gone',
  });

  it('round-trips through csv-parse: header with units, one row per stream per interval, then the summary', () => {
    const text = formatCsv(result);
    assert.ok(text.startsWith('\uFEFFrow_type,'), 'BOM then header');
    assert.ok(text.includes('\r\n') && !/[^\r]\n/.test(text), 'CRLF record delimiters only');
    const rows = parseCsv(text);
    assert.deepEqual(Object.keys(rows[0] ?? {}), [...CSV_COLUMNS]);
    assert.deepEqual(
      rows.map((r) => r.row_type),
      ['interval', 'interval', 'interval', 'interval', 'interval', 'interval', 'stream', 'stream', 'total'],
    );
    const first = rows[0]!;
    assert.equal(first.stream_id, '0');
    assert.equal(Number(first.sent_bytes), 1_100_000);
    assert.equal(Number(first.received_bytes), 1_000_000);
    assert.equal(Number(first.received_mbit_per_s), 8);
    assert.equal(Number(first.responder_t_seconds), 1.0004);
    assert.equal(first.time_utc, '2001-11-19T10:00:01.000Z');
    const total = rows[rows.length - 1]!;
    assert.equal(Number(total.received_bytes), 4_500_000);
    assert.equal(total.partial, 'true');
    assert.equal(total.partial_reason, 'responder: "disk", then, gone', 'quotes and commas survive');
    assert.equal(Number(total.duration_seconds), 3.1 - 0);
  });

  it('every header names its unit or is a label', () => {
    const units =
      /_(bytes|seconds|mbit_per_s|ms|at|utc|segments|percent_of_core|datagrams|percent)$|^(protocol|row_type|partial|partial_reason|direction|streams|controller_host|responder_host|stream_id|sender|interval_index|receive_completions|error_code|error_message|pacing_mechanism|retransmits_estimated|omitted|capacity_lower_bound|congestion_control|verdict|case|answer|change)$/;
    for (const c of CSV_COLUMNS) assert.match(c, units, c);
  });

  it('has no locale traps: . decimals, no grouping, ISO 8601 timestamps', () => {
    const rows = parseCsv(formatCsv(recordRun()));
    for (const r of rows) {
      for (const c of ['received_bytes', 'sent_bytes', 'duration_seconds', 'received_mbit_per_s', 'stream_sum_mbit_per_s'] as const) {
        const v = r[c] ?? '';
        if (v !== '') assert.match(v, /^[0-9]+(\.[0-9]+)?$/, `${c}=${v}`);
      }
      assert.equal(new Date(r.time_utc ?? '').toISOString(), r.time_utc);
    }
    const total = rows.find((r) => r.row_type === 'total')!;
    assert.equal(total.stream_sum_mbit_per_s, '957.369');
    assert.equal(total.received_mbit_per_s, '830.689');
    assert.equal(total.received_bytes, '8448000000');
  });

  it('has no column that is never filled, and rates at 3 decimals', () => {
    assert.ok(!(CSV_COLUMNS as readonly string[]).includes('rtt_ms') && !(CSV_COLUMNS as readonly string[]).includes('cwnd_bytes'));
    for (const r of parseCsv(formatCsv(recordRun())))
      for (const c of ['received_mbit_per_s', 'sent_mbit_per_s', 'stream_sum_mbit_per_s'] as const) {
        const v = r[c] ?? '';
        if (v !== '') assert.match(v, /^[0-9]+\.[0-9]{3}$/, `${c}=${v}`);
      }
  });

  it('the summary row carries the verdict, its case, the answer line, the one change, CPU per side and the congestion control', () => {
    const r = recordRun();
    r.diagnosis = diagnoseResult(r);
    r.advice = adviseResult(r, {});
    r.cpu = { controller: cpuUse(0.42), responder: cpuUse(0.97) };
    const d = r.diagnosis[0]!;
    const total = parseCsv(formatCsv(r)).find((x) => x.row_type === 'total')!;
    assert.equal(total.verdict, d.verdict);
    assert.ok((DIAGNOSIS_CASES as readonly string[]).includes(total.case ?? ''), `case ${total.case}`);
    assert.equal(total.case, d.case);
    assert.ok(total.answer?.startsWith(formatRate(r.total.bitsPerSecond)), total.answer);
    assert.equal(total.change, answerOf(r, 'terminal').change ?? '');
    assert.equal(total.cpu_controller_percent_of_core, '42.0');
    assert.equal(total.cpu_responder_percent_of_core, '97.0');
    const ccs = new Set(r.streams.map((s) => s.send?.socket?.congestionControl).filter(Boolean));
    assert.equal(total.congestion_control, [...ccs].join('; '));
  });

  it('gives per-direction totals for bidir runs', () => {
    const bidir = makeResult({
      streams: [
        { bytes: 10, seconds: 1, completions: 1 },
        { bytes: 20, seconds: 1, completions: 1, sender: 'responder' },
      ],
    });
    const types = parseCsv(formatCsv(bidir)).map((r) => r.row_type);
    assert.deepEqual(types, ['stream', 'stream', 'total_controller_to_responder', 'total_responder_to_controller', 'total']);
  });

  it('opens in Excel: the bytes start with the UTF-8 byte-order mark, non-ASCII is UTF-8, lines end CRLF', () => {
    const r = makeResult({ streams: [{ bytes: 1000, seconds: 1, completions: 1 }], partialReason: 'Müller-PC → 34 µs: gone' });
    r.controller.hostname = 'Müller-PC';
    r.responder.hostname = 'ノートPC';
    const bytes = Buffer.from(formatCsv(r), 'utf8');
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'EF BB BF first');
    assert.equal(bytes.subarray(3, 12).toString('latin1'), 'row_type,');
    assert.ok(bytes.includes(Buffer.from('Müller-PC', 'utf8')) && bytes.includes(Buffer.from('ノートPC', 'utf8')));
    assert.ok(bytes.includes(Buffer.from('→ 34 µs', 'utf8')));
    assert.equal(bytes.subarray(-2).toString('latin1'), '\r\n');
    assert.deepEqual(CSV_FORMAT, { bom: '\uFEFF', recordDelimiter: '\r\n' });
    const rows = parseCsv(bytes.toString('utf8'));
    assert.equal(rows.at(-1)?.controller_host, 'Müller-PC');
    assert.equal(rows.at(-1)?.partial_reason, 'Müller-PC → 34 µs: gone');
  });

  it('one rule for every writer: report --format csv and the app export are the same bytes', () => {
    const r = recordRun();
    assert.equal(renderReport(r, 'csv'), formatCsv(r));
    const file = exportAs(r, 'csv');
    assert.equal(file.text, formatCsv(r));
    assert.match(file.fileName, /\.csv$/);
    assert.doesNotMatch(file.fileName, /[:\\/]/, 'a file name Windows accepts');
  });

  it('text a spreadsheet would run gets a leading quote; numbers, negative ones too, stay numbers', () => {
    const r = makeResult({ streams: [{ bytes: 1000, seconds: 1, completions: 1, firstT: -0.000123 }], partialReason: '=HYPERLINK("http://x")' });
    r.responder.hostname = '-cmd';
    r.controller.hostname = '@pc';
    const rows = parseCsv(formatCsv(r));
    const stream = rows.find((x) => x.row_type === 'stream')!;
    assert.equal(stream.t_start_seconds, '-0.000123', 'a first byte before the start is a number, not text');
    assert.equal(stream.responder_host, "'-cmd");
    assert.equal(stream.controller_host, "'@pc");
    assert.equal(stream.partial_reason, '\'=HYPERLINK("http://x")');
  });
});
