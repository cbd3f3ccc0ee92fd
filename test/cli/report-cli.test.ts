import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { startCli, waitFor } from '../helpers/cli-process.js';
import { REPO } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';

const read = (f: string): string => (existsSync(f) ? readFileSync(f, 'utf8') : '');
/** Interval rows in a receiver log: "index thread end seconds bytes rate", then the sender's retr and cwnd (numbers or "unknown"). */
const intervalRows = (log: string): string[] =>
  log.split('\n').filter((l) => /^ +\d+ +\d+ +\d+\.\d{3} +\d+\.\d{3} +\d+ +\d+\.\d{3}( +(\d+|unknown|-)){0,2}$/.test(l));

describe('longhaul report CLI', { timeout: 60_000 }, () => {
  it('loopback writes --log/--csv during the run; report re-renders the saved result to the same text', async (t) => {
    const dir = tmpDir(t);
    const run = startCli(
      t,
      ['loopback', '-t', '2.2', '-P', '2', '--workers', '1', '--log', 'r.log', '--csv', 'r.csv', '--json', 'r.json', '--distance-km', '5626'],
      dir,
    );
    assert.equal(await run.exited(30_000), 0, run.stderr());
    assert.match(run.stdout(), /Land Speed Record metric \(throughput x 5,626 km\)/);
    assert.match(run.stdout(), /Report written to r\.log, r\.csv/);
    const log = read(path.join(dir, 'r.log'));
    assert.ok(intervalRows(log).length >= 4, log);
    assert.doesNotMatch(log, /PARTIAL/);

    const console = startCli(t, ['report', '--from', 'r.json', '--format', 'console'], dir);
    assert.equal(await console.exited(10_000), 0, console.stderr());
    assert.equal(console.stdout(), log, 'the live log is exactly the saved result re-rendered');

    const csv = startCli(t, ['report', '--from', 'r.json', '--format', 'csv', '--out', 'again.csv'], dir);
    assert.equal(await csv.exited(10_000), 0, csv.stderr());
    const live = parse(read(path.join(dir, 'r.csv')), { columns: true, bom: true }) as Record<string, string>[];
    const again = parse(read(path.join(dir, 'again.csv')), { columns: true, bom: true }) as Record<string, string>[];
    assert.equal(again.length, live.length);
    const json = JSON.parse(read(path.join(dir, 'r.json'))) as { total: { bytes: number }; distance?: { meters: number; source: string } };
    assert.equal(Number(live.find((r) => r.row_type === 'total')?.received_bytes), json.total.bytes);
    // The distance is part of the result, so a report made later from the file still has the metric.
    assert.deepEqual(json.distance, { meters: 5_626_000, source: 'given' });
    const html = startCli(t, ['report', '--from', 'r.json', '--format', 'html', '--out', 'r.html'], dir);
    assert.equal(await html.exited(10_000), 0, html.stderr());
    assert.match(read(path.join(dir, 'r.html')), /Land Speed Record metric \(throughput x 5,626 km\)/);

    const ttcp = startCli(t, ['report', '--from', 'r.json', '--format', 'ttcp'], dir);
    assert.equal(await ttcp.exited(10_000), 0);
    assert.match(ttcp.stdout(), new RegExp(`^${json.total.bytes} bytes in \\d+\\.\\d\\d real seconds = \\d+\\.\\d\\d Mbit/sec$`, 'm'));
  });

  it('a killed run (SIGKILL) leaves every interval so far and a summary marked partial', async (t) => {
    const dir = tmpDir(t);
    const logFile = path.join(dir, 'k.log');
    const csvFile = path.join(dir, 'k.csv');
    const run = startCli(t, ['loopback', '-t', '20', '-i', '0.5', '--workers', '1', '--log', 'k.log', '--csv', 'k.csv'], dir);
    // Both files: each interval goes to the log, then to the CSV; a kill between the two would leave the CSV one behind.
    const csvIntervals = (): number => (read(csvFile).match(/(^|,)interval,/gm) ?? []).length;
    await waitFor('three intervals in the log and the CSV', 15_000, () => intervalRows(read(logFile)).length >= 3 && csvIntervals() >= 3);
    run.killGroup();
    await run.exited(5_000);
    const log = read(logFile);
    const rows = intervalRows(log);
    assert.ok(rows.length >= 3);
    assert.deepEqual(
      rows.map((r) => Number(r.trim().split(/\s+/)[0])),
      rows.map((_, i) => i + 1),
      'intervals 1..n, none missing',
    );
    assert.match(log, /\nPARTIAL: the run is still going or was interrupted after interval \d+/);
    assert.match(log, /\nWall-clock aggregate Throughput\(Mbit\/s\) \d+\.\d{3} /, 'the partial summary is complete');
    const csv = parse(read(csvFile), { columns: true, bom: true }) as Record<string, string>[];
    assert.ok(csv.filter((r) => r.row_type === 'interval').length >= 3);
    assert.deepEqual(
      csv.filter((r) => r.row_type === 'total').map((r) => r.partial),
      ['true'],
    );
  });

  it('a run whose responder dies ends with a final partial summary in the log', async (t) => {
    const dir = tmpDir(t);
    const logFile = path.join(dir, 'p.log');
    const responder = startCli(t, ['listen', '--port', '0', '--bind', '127.0.0.1', '--once', '--workers', '1'], dir);
    const port = await waitFor('the responder to listen', 10_000, () => /listening on 127\.0\.0\.1:(\d+)/.exec(responder.stdout())?.[1]);
    const run = startCli(t, ['run', `127.0.0.1:${port}`, '-t', '20', '-i', '0.5', '--workers', '1', '--log', 'p.log'], dir);
    await waitFor('two intervals in the log', 15_000, () => intervalRows(read(logFile)).length >= 2);
    responder.killGroup();
    assert.equal(await run.exited(15_000), 1, 'a partial run exits 1');
    const log = read(logFile);
    assert.match(log, /^Run [0-9a-f]+: .* PARTIAL: .+$/m);
    assert.match(log, /^Total Bytes\(MEG\)/m);
    assert.doesNotMatch(log, /still going/);
  });

  it('refuses existing files and full disks before any traffic, and bad input with exit code 2', async (t) => {
    const dir = tmpDir(t);
    writeFileSync(path.join(dir, 'old.log'), 'keep');
    const exists = startCli(t, ['loopback', '-t', '1', '--log', 'old.log'], dir);
    assert.equal(await exists.exited(10_000), 2);
    assert.match(exists.stderr(), /LH_ERR_FILE_EXISTS: cannot create old\.log: it already exists; add --force/);
    assert.equal(read(path.join(dir, 'old.log')), 'keep');
    const full = startCli(t, ['loopback', '-t', '1', '--csv', '/dev/full', '--force'], dir);
    assert.equal(await full.exited(10_000), 2);
    assert.match(full.stderr(), /LH_ERR_IO: cannot write \/dev\/full: the disk is full/);
    const notDir = startCli(t, ['loopback', '-t', '1', '--json', '/dev/full/r.json'], dir);
    assert.equal(await notDir.exited(10_000), 2);
    assert.match(notDir.stderr(), /ENOTDIR/);
    const badResult = startCli(t, ['report', '--from', 'old.log'], dir);
    assert.equal(await badResult.exited(10_000), 2);
    assert.match(badResult.stderr(), /LH_ERR_BAD_RESULT: old\.log is not JSON/);
  });

  it('a sweep file: --format html, csv and json render it; a run-only format is refused with exit code 2', async (t) => {
    const dir = tmpDir(t);
    const from = path.join(REPO, 'test', 'report', 'fixtures', 'sweep-loopback.json');
    const html = startCli(t, ['report', '--from', from, '--format', 'html', '--out', 'sweep.html'], dir);
    assert.equal(await html.exited(10_000), 0, html.stderr());
    const text = read(path.join(dir, 'sweep.html'));
    assert.match(text, /^<!doctype html>/);
    assert.match(text, /This PC \(loopback\): window × streams/);
    assert.doesNotMatch(text, /<script/i);
    const csv = startCli(t, ['report', '--from', from, '--format', 'csv'], dir);
    assert.equal(await csv.exited(10_000), 0, csv.stderr());
    assert.match(csv.stdout(), /row_type/);
    const ttcp = startCli(t, ['report', '--from', from, '--format', 'ttcp'], dir);
    assert.equal(await ttcp.exited(10_000), 2);
    assert.match(ttcp.stderr(), /LH_ERR_BAD_ARGUMENT: a sweep has no ttcp form/);
  });

  it('bdp prints 650,000 bytes for 1.3 s x 4 Mbit/s and 53.9 kbit/s for an 8760-byte window', async (t) => {
    const dir = tmpDir(t);
    const rate = startCli(t, ['bdp', '--rtt', '1.3s', '--rate', '4mbit'], dir);
    assert.equal(await rate.exited(10_000), 0);
    assert.match(rate.stdout(), /^Bandwidth-delay product: 650,000 bytes/);
    const win = startCli(t, ['bdp', '--rtt', '1.3s', '--window', '8760'], dir);
    assert.equal(await win.exited(10_000), 0);
    assert.match(win.stdout(), /^Window ceiling: 53\.9 kbit\/s per stream/);
    const bad = startCli(t, ['bdp', '--rtt', 'soon', '--rate', '4mbit'], dir);
    assert.equal(await bad.exited(10_000), 2);
    assert.match(bad.stderr(), /--rtt: "soon" is not a valid duration/);
  });
});
