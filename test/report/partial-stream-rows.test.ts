/**
 * A partial run's stream rows show what was measured: each stream's seconds measured and its rate over
 * them, labelled partial as the total is, in every renderer that has a row per stream (the console log,
 * the --explain summary, the HTML report, ttcp's comment lines, the CSV's partial columns). The fixture
 * is the shape a killed responder leaves: no stream's last byte known (seconds null), a partialRate on each.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult, PartialRate } from '../../electron/contract/result.js';
import { formatConsoleLog } from '../../electron/report/console-log.js';
import { formatCsv } from '../../electron/report/csv-report.js';
import { formatHtmlReport } from '../../electron/report/html-report.js';
import { formatSummary } from '../../electron/report/summary-block.js';
import { formatTtcp } from '../../electron/report/ttcp.js';
import { makeResult } from '../helpers/result-fixtures.js';

/** Two streams cut after 1.020 s measured: 680,784,682 B and 587,395,829 B (a real killed run's figures). */
function killedRun(): LonghaulResult {
  const r = makeResult({
    streams: [
      { bytes: 680_784_682, seconds: null, completions: 5000 },
      { bytes: 587_395_829, seconds: null, completions: 4000 },
    ],
    partialReason: 'the responder lab-7 (192.0.2.7:5211) closed the control connection in state "running"',
  });
  const over = (bytes: number): PartialRate => ({ seconds: 1.020215506, bitsPerSecond: (bytes * 8) / 1.020215506, span: 'start-to-last-sample' });
  for (const s of r.streams) s.partialRate = over(s.bytes);
  r.total.partialRate = over(r.total.bytes);
  return r;
}

const LABEL = '(partial: over the 1.0 s measured)';

describe('a partial run: each stream row shows its seconds measured and its rate over them, labelled', { timeout: 10_000 }, () => {
  it('console log: the PetaBumps rows, and the sum labelled as summing partial rates', () => {
    const lines = formatConsoleLog(killedRun()).split('\n');
    const at = lines.indexOf('Thread Realtime(s) Throughput(KB/s) Throughput(Mbit/s)');
    assert.equal(lines[at + 1]!.trim(), `0       1.020       667294.976           5338.360  ${LABEL}`);
    assert.equal(lines[at + 2]!.trim(), `1       1.020       575756.618           4606.053  ${LABEL}`);
    assert.match(lines[at + 4]!, /^\s+1268\.180511\s+unknown\s+unknown\s+9944\.413 {2}\(partial: 2 of 2 threads rated over the seconds measured\)$/);
    assert.ok(!lines.slice(at + 1, at + 3).some((l) => l.includes('unknown')), 'no stream row reads unknown');
  });

  it('a complete run keeps its rows unlabelled', () => {
    const r = makeResult({ streams: [{ bytes: 1e6, seconds: 2, completions: 10 }] });
    assert.doesNotMatch(formatConsoleLog(r), /partial/);
    assert.doesNotMatch(formatSummary(r), /partial:/);
  });

  it('--explain: the stream table', () => {
    const rows = formatSummary(killedRun())
      .split('\n')
      .filter((l) => /^[01] {6}controller/.test(l));
    assert.equal(rows.length, 2);
    assert.match(rows[0]!, /^0 {6}controller\s+680,784,682\s+680,784,682\s+1\.020\s+5\.34 Gbit\/s {2}\(partial: over the 1\.0 s measured\)$/);
  });

  it('HTML: the stream table', () => {
    const html = formatHtmlReport(killedRun());
    const rows = [...html.matchAll(/<tr><td class="n">(\d)<\/td>.*?<\/tr>/g)].map((m) => m[0]);
    assert.equal(rows.length, 2, 'one row per stream');
    assert.ok(rows[0]!.includes('<td class="n">1.020</td><td class="n">5.34 Gbit/s (partial: over the 1.0 s measured)</td>'), rows[0]);
  });

  it('ttcp: a comment line per stream, its line left as ttcp prints it', () => {
    const lines = formatTtcp(killedRun()).split('\n');
    assert.ok(lines.includes('stream 0: 680784682 bytes in unknown real seconds = unknown Mbit/sec'));
    assert.ok(lines.includes('# stream 0, partial: over the 1.0 s measured: 680784682 bytes in 1.02 real seconds = 5091.06 Mbit/sec'), lines.join('\n'));
  });

  it('CSV: the stream rows carry the partial seconds and rate', () => {
    const [head, ...rows] = formatCsv(killedRun()).trim().split('\n');
    const cols = head!.split(',');
    const stream0 = rows.map((r) => r.split(',')).find((c) => c[cols.indexOf('row_type')] === 'stream' && c[cols.indexOf('stream_id')] === '0');
    assert.ok(stream0);
    assert.equal(stream0[cols.indexOf('partial_seconds')], '1.020216');
    assert.match(stream0[cols.indexOf('partial_mbit_per_s')]!, /^5338\.36/);
  });
});
