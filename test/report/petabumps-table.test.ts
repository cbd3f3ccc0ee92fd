import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { consoleLogSummary, formatConsoleLog, petaBumpsInputFromIntervals } from '../../electron/report/console-log.js';
import { formatPetaBumpsTable } from '../../electron/report/petabumps-table.js';
import { makeIntervals, makeResult, recordRun } from '../helpers/result-fixtures.js';

const words = (line: string | undefined): string[] => (line ?? '').trim().split(/\s+/);

describe('PetaBumps receiver table', { timeout: 10_000 }, () => {
  it('reproduces the 2001 record run rows exactly', () => {
    const lines = consoleLogSummary(recordRun()).split('\n');
    const at = lines.indexOf('Thread Realtime(s) Throughput(KB/s) Throughput(Mbit/s)');
    assert.ok(at >= 0, 'thread header present verbatim');
    assert.deepEqual(words(lines[at + 1]), ['0', '62.344', '67753.112', '542.025']);
    assert.deepEqual(words(lines[at + 2]), ['1', '81.359', '51918.042', '415.344']);
    assert.equal(lines[at + 3], 'Total Bytes(MEG) Realtime(s) Total Throughput(Trans/s) Total Throughput(Mbit/s)');
    assert.deepEqual(words(lines[at + 4]), ['8448.000000', '81.359', '3573.274', '957.369']);
  });

  it('aligns each value right under its column header', () => {
    const lines = formatPetaBumpsTable({
      threads: [{ id: 0, bytes: 4_224_000_000, seconds: 62.344 }],
      totalBytes: 4_224_000_000,
      totalSeconds: 62.344,
      completions: 1,
    });
    assert.equal(lines[1], '     0      62.344        67753.112            542.025');
    assert.equal(lines[3], '     4224.000000      62.344                     0.016                  542.025');
  });

  it('adds the wall-clock aggregate, which is not the per-thread sum', () => {
    const line = consoleLogSummary(recordRun())
      .split('\n')
      .find((l) => l.startsWith('Wall-clock aggregate'));
    assert.ok(line);
    // 8,448,000,000 B × 8 / 81.359 s = 830.6887 Mbit/s: the "830.68" is this value cut to 2 decimals.
    assert.match(line, /^Wall-clock aggregate Throughput\(Mbit\/s\) 830\.689 /);
    assert.match(line, /not the per-thread sum/);
  });

  it('names every unit in a header line', () => {
    const first = formatConsoleLog(recordRun()).split('\n')[0] ?? '';
    for (const unit of ['KB = 1000 bytes', 'MEG = 10^6 bytes', 'Mbit = 10^6 bits', 'sum of the per-thread rates']) assert.ok(first.includes(unit), unit);
  });

  it('prints "unknown" where a time is unknown, never a number', () => {
    const r = makeResult({ streams: [{ bytes: 1000, seconds: null, completions: 1 }], partialReason: 'the responder vanished' });
    const text = consoleLogSummary(r);
    assert.deepEqual(words(text.split('\n').find((l) => /^\s+0\s/.test(l))), ['0', 'unknown', 'unknown', 'unknown']);
    assert.match(text, /PARTIAL: the responder vanished/);
    assert.doesNotMatch(text, /NaN|Infinity/);
  });

  it('builds a partial table from intervals (interval boundaries as realtimes)', () => {
    const input = petaBumpsInputFromIntervals(
      makeIntervals([
        { t: 1, received: [1_000_000, 0] },
        { t: 2, received: [1_000_000, 500_000] },
        { t: 3, received: [0, 500_000] },
      ]),
    );
    assert.deepEqual(input.threads, [
      { id: 0, bytes: 2_000_000, seconds: 2 },
      { id: 1, bytes: 1_000_000, seconds: 2 },
    ]);
    assert.equal(input.totalBytes, 3_000_000);
    assert.equal(input.totalSeconds, 3);
  });
});
