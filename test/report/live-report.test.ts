import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { formatConsoleLog } from '../../electron/report/console-log.js';
import { formatCsv } from '../../electron/report/csv-report.js';
import { openLiveReport } from '../../electron/report/live-report.js';
import { LonghaulError } from '../../electron/util/errors.js';
import { makeIntervals, makeResult } from '../helpers/result-fixtures.js';
import { tmpDir } from '../helpers/tmp.js';

const intervals = makeIntervals([
  { t: 1, received: [1_000_000, 2_000_000] },
  { t: 2, received: [1_500_000, 2_500_000] },
  { t: 2.5, received: [500_000, 0] },
]);
const result = makeResult({
  streams: [
    { bytes: 3_000_000, seconds: 2.4, completions: 46, firstT: 0.05 },
    { bytes: 4_500_000, seconds: 1.95, completions: 70, firstT: 0.01 },
  ],
  intervals,
});
const senders = result.streams.map((s) => ({ id: s.id, sender: s.sender }));

describe('live report', { timeout: 10_000 }, () => {
  it('after every interval the files hold all intervals so far and a partial summary', (t) => {
    const dir = tmpDir(t);
    const logFile = path.join(dir, 'run.log');
    const csvFile = path.join(dir, 'run.csv');
    const live = openLiveReport({ logFile, csvFile, params: result.params, senders });
    live.start(new Date(result.startedAt));
    assert.match(readFileSync(logFile, 'utf8'), /PARTIAL: .*before the first interval/);
    live.interval(intervals[0]!);
    live.interval(intervals[1]!);
    const log = readFileSync(logFile, 'utf8');
    assert.match(log, /^ +2 +1 +2\.000 +1\.000 +2500000 +20\.000 +unknown +unknown$/m);
    assert.match(log, /PARTIAL: the run is still going or was interrupted after interval 2 \(t = 2\.000 s\)/);
    assert.deepEqual(log.match(/^Total Bytes\(MEG\).*\n +(\S+)/m)?.[1], '7.000000');
    const rows = parse(readFileSync(csvFile, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
    assert.deepEqual(
      rows.map((r) => r.row_type),
      ['interval', 'interval', 'interval', 'interval', 'total'],
    );
    assert.equal(rows[4]?.partial, 'true');
    assert.equal(rows[4]?.received_bytes, '7000000');
    live.finish(result);
    assert.deepEqual(live.errors, []);
  });

  it('finish adds missing intervals and leaves exactly what the saved result re-renders to', (t) => {
    const dir = tmpDir(t);
    const logFile = path.join(dir, 'run.log');
    const csvFile = path.join(dir, 'run.csv');
    const live = openLiveReport({ logFile, csvFile, params: result.params, senders });
    live.start(new Date(result.startedAt));
    live.interval(intervals[0]!);
    live.interval(intervals[0]!); // a repeat is ignored
    live.finish(result); // intervals 2 and 3 come from the result
    assert.equal(readFileSync(logFile, 'utf8'), formatConsoleLog(result));
    assert.equal(readFileSync(csvFile, 'utf8'), formatCsv(result));
    assert.doesNotMatch(readFileSync(logFile, 'utf8'), /PARTIAL/);
  });

  it('refuses before the run: existing files, same file twice, a full disk; nothing is lost', (t) => {
    const dir = tmpDir(t);
    const logFile = path.join(dir, 'run.log');
    const csvFile = path.join(dir, 'old.csv');
    writeFileSync(csvFile, 'precious');
    const codeOf = (fn: () => unknown): string => {
      try {
        fn();
        return 'none';
      } catch (err) {
        return (err as LonghaulError).code;
      }
    };
    assert.equal(
      codeOf(() => openLiveReport({ logFile, csvFile, params: result.params, senders })),
      'LH_ERR_FILE_EXISTS',
    );
    assert.equal(existsSync(logFile), false, 'the log it had created is removed again');
    assert.equal(readFileSync(csvFile, 'utf8'), 'precious');
    assert.equal(
      codeOf(() => openLiveReport({ logFile, csvFile: logFile, params: result.params, senders })),
      'LH_ERR_BAD_ARGUMENT',
    );
    assert.equal(
      codeOf(() => openLiveReport({ logFile: '/dev/full', force: true, params: result.params, senders })),
      'LH_ERR_IO',
    );
  });
});
