/**
 * `longhaul run HOST1 HOST2`: two paired `longhaul listen` processes on
 * 127.0.0.1, the real CLI as controller (its trust folder is the test run's
 * $LONGHAUL_TRUST_DIR, where the pairings are saved), its files and exit codes.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulGroupResult } from '../../electron/contract/group.js';
import { loadTrust } from '../../electron/security/load-trust.js';
import { startCli } from '../helpers/cli-process.js';
import { pairedListeners } from '../helpers/listeners.js';
import { tmpDir } from '../helpers/tmp.js';

describe('longhaul run with several hosts', { timeout: 120_000 }, () => {
  it('run HOST1 HOST2 -R -n … --json --csv --log: exit 0, the group document, per-peer and aggregate output', async (t) => {
    const dir = tmpDir(t);
    const mine = await loadTrust();
    const [a, b] = await pairedListeners(t, mine, ['cli-peer-a', 'cli-peer-b']);
    const files = { json: path.join(dir, 'group.json'), csv: path.join(dir, 'group.csv'), log: path.join(dir, 'group.log') };
    const bytes = 300_000_001; // several 0.1 s intervals on loopback
    const run = startCli(
      t,
      [
        'run',
        `127.0.0.1:${a!.port}`,
        `127.0.0.1:${b!.port}`,
        '-R',
        '-n',
        String(bytes),
        '-i',
        '0.1',
        '--json',
        files.json,
        '--csv',
        files.csv,
        '--log',
        files.log,
      ],
      dir,
    );
    const code = await run.exited(60_000);
    assert.equal(code, 0, `exit code; stdout: ${run.stdout()} stderr: ${run.stderr()}`);
    const g = JSON.parse(await readFile(files.json, 'utf8')) as LonghaulGroupResult;
    assert.equal(g.schema, 'longhaul.group/1');
    assert.deepEqual(
      g.peers.map((p) => p.address),
      [`127.0.0.1:${a!.port}`, `127.0.0.1:${b!.port}`],
    );
    assert.deepEqual(
      g.peers.map((p) => p.result.total.bytes),
      [bytes, bytes],
    );
    assert.equal(g.total.bytes, 2 * bytes);
    assert.equal(g.partial, false);
    const out = run.stdout();
    assert.match(out, /\] .* peer 1(?: \(last\))?\n/, 'live lines per peer');
    assert.match(out, /\] .* all\n/, 'live aggregate lines');
    assert.match(out, /\] .* peer 2(?: \(last\))?\n/);
    assert.match(out, new RegExp(`=== peer 1 \\(127\\.0\\.0\\.1:${a!.port}\\) ===`));
    assert.match(out, new RegExp(`=== peer 2 \\(127\\.0\\.0\\.1:${b!.port}\\) ===`));
    assert.match(out, /=== all 2 peers ===/);
    assert.match(out, /Aggregate: 600,000,002 bytes/);
    assert.match(out, /wall-clock aggregate .* all peers/);
    assert.match(out, /per-peer sum/);
    const csv = await readFile(files.csv, 'utf8');
    assert.ok(csv.startsWith('\uFEFFpeer,row_type,'), csv.slice(0, 40));
    const rows = csv.split('\r\n');
    const total = rows.find((r) => r.startsWith('all,group_total,'));
    assert.ok(total, 'a group_total row');
    assert.ok(total.includes(',600000002,'), total);
    assert.ok(
      rows.some((r) => r.startsWith(`peer 2 (127.0.0.1:${b!.port}),total,`)),
      "each peer's own total row",
    );
    const log = await readFile(files.log, 'utf8');
    assert.match(log, /=== all 2 peers \(Thread = peer number\) ===/);
    assert.match(log, /Total Throughput\(Mbit\/s\)/);
  });

  it('the same host twice → exit 2, nothing runs', async (t) => {
    const run = startCli(t, ['run', '127.0.0.1:5999', '127.0.0.1:5999'], tmpDir(t));
    assert.equal(await run.exited(15_000), 2);
    assert.match(run.stderr(), /named twice/);
  });

  it('--path-rate with several responders → exit 2 naming the flag, nothing runs', async (t) => {
    // Port 1 on loopback: were anything dialed, the run would fail with exit 1 and LH_ERR_REFUSED instead.
    const run = startCli(t, ['run', '127.0.0.1:1', '127.0.0.1:2', '--path-rate', '4mbit'], tmpDir(t));
    assert.equal(await run.exited(15_000), 2, run.stderr());
    assert.match(run.stderr(), /--path-rate: .*one responder/);
    assert.doesNotMatch(run.stderr(), /LH_ERR_REFUSED/);
  });

  it('a peer that is not there → exit 1, the error names it', async (t) => {
    const mine = await loadTrust();
    const [a] = await pairedListeners(t, mine, ['cli-peer-c']);
    const dir = tmpDir(t);
    const json = path.join(dir, 'g.json');
    // Port 1 on loopback: nothing listens there (refused at once).
    const run = startCli(t, ['run', `127.0.0.1:${a!.port}`, '127.0.0.1:1', '-n', '1M', '--json', json], dir);
    assert.equal(await run.exited(30_000), 1, run.stdout() + run.stderr());
    assert.match(run.stderr(), /LH_ERR_GROUP_START: peer 2 \(127\.0\.0\.1:1\) failed before the start/);
    const g = JSON.parse(await readFile(json, 'utf8')) as LonghaulGroupResult;
    assert.equal(g.partial, true);
    assert.equal(g.total.bytes, 0);
  });
});
