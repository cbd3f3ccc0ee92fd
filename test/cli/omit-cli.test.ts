/**
 * `-O, --omit` as a user runs it: a real loopback run of 3 s with -O 1 marks its first interval
 * omitted in the result, the console log and the CSV, and its totals cover the 2 s after it; a
 * typo or a value not shorter than the run exits 2 naming the flag.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { cli } from '../helpers/cli.js';

describe('longhaul -O/--omit', { timeout: 120_000 }, () => {
  for (const [args, why] of [
    [['loopback', '-t', '3', '-O', '3'], 'as long as the run'],
    [['loopback', '-t', '2', '--omit', '5'], 'longer than the run'],
    [['run', '127.0.0.1', '-O', '1x'], 'a typo'],
    [['loopback', '-O', '-1'], 'negative'],
  ] as const) {
    it(`${args.join(' ')} (${why}) → exit 2 naming --omit`, async () => {
      const r = await cli([...args]).done;
      assert.equal(r.code, 2, `exit code; stdout: ${r.stdout} stderr: ${r.stderr}`);
      assert.ok(r.stderr.includes('--omit'), `stderr names --omit: ${r.stderr}`);
    });
  }

  it('loopback -t 3 -O 1: interval 1 marked omitted everywhere, the totals cover the 2 s after it', async () => {
    const base = path.join(os.tmpdir(), `longhaul-omit-${process.pid}`);
    const files = { json: `${base}.json`, log: `${base}.log`, csv: `${base}.csv` };
    try {
      const r = await cli(['loopback', '-t', '3', '-O', '1', '--json', files.json, '--log', files.log, '--csv', files.csv], 60_000).done;
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /Omitted \(--omit 1 s\): interval 1 \(to 1\.\d\d s\) is shown but left out of the totals and the verdict/);
      assert.match(r.stdout, /^\[ +0\.00- +1\.\d\d s\].* \(omitted\)$/m, 'the CLI interval line is marked');
      const result = JSON.parse(await readFile(files.json, 'utf8')) as LonghaulResult;
      assert.equal(result.params.omitSeconds, 1);
      assert.equal(result.intervals[0]?.omitted, true);
      assert.ok(
        result.intervals.slice(1).every((iv) => !iv.omitted),
        'only the first interval',
      );
      const seconds = result.total.seconds ?? 0;
      assert.ok(seconds > 1.8 && seconds < 2.3, `totals over the 2 s after the omitted one, got ${seconds} s`);
      const counted = result.intervals.filter((iv) => !iv.omitted).reduce((a, iv) => a + (iv.receivedBytes ?? 0), 0);
      assert.equal(result.total.bytes, counted, 'total bytes are the intervals after the omitted one');
      assert.ok(result.total.bytes < (result.streams[0]?.receive?.bytes ?? 0), 'the receiver view keeps every byte');
      const log = await readFile(files.log, 'utf8');
      assert.match(log, /^ +1 +0 +1\.\d{3} .* \(omitted\)$/m);
      const csv = (await readFile(files.csv, 'utf8')).split('\r\n');
      const header = csv[0]?.replace('\uFEFF', '').split(',') ?? [];
      const row1 = csv[1]?.split(',') ?? [];
      assert.equal(row1[header.indexOf('omitted')], 'true');
      assert.equal(csv[2]?.split(',')[header.indexOf('omitted')], 'false');
      assert.match(row1[header.indexOf('retransmits_segments')] ?? '', /^\d+$/, 'retransmits counted on loopback');
      assert.match(row1[header.indexOf('cwnd_at_end_bytes')] ?? '', /^\d+$/);
    } finally {
      await Promise.all(Object.values(files).map((f) => rm(f, { force: true })));
    }
  });
});
