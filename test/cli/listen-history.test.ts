/**
 * `longhaul listen` records the runs it serves in History, the app's results folder ($LONGHAUL_DATA_DIR
 * here): one `longhaul run` against it leaves exactly one result file, which `longhaul report --from`
 * re-renders and `longhaul history` lists; with `--no-record` it leaves none.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readResultFile } from '../../electron/report/result-file.js';
import { cli, waitForOutput } from '../helpers/cli.js';

/** Serve one byte-limited run with `listen --once` (plus `flags`) recording into `dir`; the listener's output. */
async function serveOne(dir: string, flags: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const env = { LONGHAUL_DATA_DIR: dir };
  const listener = cli(['listen', '--port', '0', '--bind', '127.0.0.1', '--once', ...flags], 40_000, env);
  try {
    const [, port] = await waitForOutput(listener.child, /listening on 127\.0\.0\.1:(\d+)/);
    const run = await cli(['run', `127.0.0.1:${port}`, '--bytes', '20M'], 30_000, env).done;
    assert.equal(run.code, 0, `the run: ${run.stdout} ${run.stderr}`);
    const done = await listener.done;
    assert.equal(done.code, 0, `listener exit; ${done.stdout} ${done.stderr}`);
    return done;
  } finally {
    listener.child.kill('SIGKILL');
  }
}

describe('longhaul listen → History', { timeout: 90_000 }, () => {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('one run served: one result in the results folder, said on the console, re-rendered by report --from, listed by history', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lh-listen-history-'));
    dirs.push(dir);
    const done = await serveOne(dir, []);
    const names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
    assert.equal(names.length, 1, `one result file in ${dir}: ${names.join(', ')}`);
    const file = path.join(dir, names[0]!);
    assert.ok(done.stdout.includes(`saved to History: ${file}`), `the console says where: ${done.stdout}`);
    const r = await readResultFile(file);
    assert.equal(r.writtenBy, 'responder');
    assert.equal(r.partial, false, r.partialReason ?? '');
    assert.equal(r.total.bytes, 20 * 1024 * 1024, 'the run asked for 20M, all of it received');
    assert.match(names[0]!, new RegExp(`_${r.id}\\.json$`), 'History names files <startedAt>_<id>.json');
    const report = await cli(['report', '--from', file, '--format', 'console']).done;
    assert.equal(report.code, 0, `report --from: ${report.stderr}`);
    assert.ok(report.stdout.includes(`Run ${r.id}`), `the report is of this run: ${report.stdout}`);
    const history = await cli(['history', '--format', 'json'], 30_000, { LONGHAUL_DATA_DIR: dir }).done;
    assert.equal(history.code, 0, history.stderr);
    const rows = JSON.parse(history.stdout) as { run_id: string }[];
    assert.deepEqual(
      rows.map((x) => x.run_id),
      [r.id],
      'history lists it',
    );
  });

  it('--no-record: the run is served, nothing is written', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lh-listen-no-record-'));
    dirs.push(dir);
    const done = await serveOne(dir, ['--no-record']);
    assert.match(done.stdout, /run [0-9a-f]+ complete/);
    assert.doesNotMatch(done.stdout, /saved to History/);
    assert.deepEqual(await readdir(dir), []);
  });
});
