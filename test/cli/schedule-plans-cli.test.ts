/**
 * Kept schedules from the terminal (`longhaul schedule add|list|show|pause|resume|delete|run`), run
 * against two paired `longhaul listen` processes on 127.0.0.1: a plan added, listed and run; while
 * `schedule run` follows the files, a hand edit that breaks the file is said with its line and the
 * schedule goes on, a fix that drops a peer restarts it as edited, a pause stops it; a second runner
 * on the same data folder is refused, naming the first.
 */
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { loadTrust } from '../../electron/security/load-trust.js';
import { startCli, waitFor } from '../helpers/cli-process.js';
import { pairedListeners } from '../helpers/listeners.js';
import { tmpDir } from '../helpers/tmp.js';

async function scheduled(dir: string): Promise<LonghaulResult[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  const all = await Promise.all(names.map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8')) as LonghaulResult));
  return all.filter((r) => r.writtenBy === 'controller' && r.schedule);
}

describe('longhaul schedule: kept plans', { timeout: 150_000 }, () => {
  it('add, list, show, run; followed while running: a broken edit is said and the plan goes on, a fix restarts it, a pause stops it', async (t) => {
    const dir = tmpDir(t);
    const env = { LONGHAUL_DATA_DIR: path.join(dir, 'r') };
    const mine = await loadTrust();
    const [a, b] = await pairedListeners(t, mine, ['plan-a', 'plan-b'], mine, false);
    const peers = [`127.0.0.1:${a!.port}`, `127.0.0.1:${b!.port}`];
    const cli = async (...args: string[]): Promise<{ code: number | null; out: string; err: string }> => {
      const p = startCli(t, ['schedule', ...args], dir, env);
      const code = await p.exited(30_000);
      return { code, out: p.stdout(), err: p.stderr() };
    };

    const added = await cli('add', 'lab', '--every', '6s', '-t', '0.5', ...peers);
    assert.equal(added.code, 0, added.err);
    const file = path.join(dir, 'r', 'schedules', 'lab.plan.json');
    assert.match(added.out, /Schedule "lab" kept in .*lab\.plan\.json/);
    assert.equal((await cli('add', 'lab', '--every', '6s', peers[0]!)).code, 2, 'a taken name');
    const refused = await cli('add', 'fast', '--every', '6s', '-t', '5', peers[0]!);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /--every: each test runs 5 s plus set-up/);
    const list = await cli('list');
    assert.match(list.out, new RegExp(`^lab +every 6s +${peers.join(' ')} +TCP, 1 stream, 0.5 s +next round`, 'm'));
    assert.match((await cli('show', 'lab')).out, /"schema": "longhaul.schedule\/1"/);

    const run = startCli(t, ['schedule', 'run'], dir, env);
    await waitFor('the first round of both peers', 30_000, () => peers.every((p) => new RegExp(`slot \\d+ ${p}: `).test(run.stdout())));
    const busy = await cli('run');
    assert.equal(busy.code, 1, 'one runner per data folder');
    assert.match(busy.err, /LH_ERR_BUSY: this PC's schedules are run by longhaul schedule \(process \d+/);

    const good = await readFile(file, 'utf8');
    await writeFile(file, good.replace('"every": "6s"', '"every": 6s'));
    await waitFor('the broken file said with its line', 10_000, () =>
      /lab\.plan\.json:4:\d+: not JSON: .* the schedule goes on as it was until the file is fixed/.test(run.stdout()),
    );
    const broken = await cli('list');
    assert.match(broken.out, /^lab .*BROKEN: line 4: not JSON/m);

    await writeFile(file, good.replace(`,\n    "${peers[1]}"`, ''));
    await waitFor(
      'restarted as edited',
      20_000,
      () => /Schedule "lab" edited: starting again as edited/.test(run.stdout()) && /Schedule "lab": 127\.0\.0\.1:\d+ every 6s/.test(run.stdout()),
    );
    const pausedCmd = await cli('pause', 'lab');
    assert.equal(pausedCmd.code, 0, pausedCmd.err);
    await waitFor('paused', 20_000, () => /Schedule "lab" paused/.test(run.stdout()));
    assert.match((await cli('list')).out, /^lab .* paused$/m);
    run.child.kill('SIGINT');
    assert.equal(await run.exited(20_000), 0, `stdout: ${run.stdout()}\nstderr: ${run.stderr()}`);
    const rs = await scheduled(path.join(dir, 'r'));
    assert.ok(rs.length >= 2 && rs.every((r) => r.schedule?.name === 'lab'), `${rs.length} tagged results`);
    const spans = rs.map((r) => [r.startedAt, r.endedAt]).sort();
    for (let i = 1; i < spans.length; i++) assert.ok(spans[i]![0]! >= spans[i - 1]![1]!, 'never two at once');

    assert.equal((await cli('resume', 'lab')).code, 0);
    assert.equal((await cli('delete', 'lab')).code, 0);
    const none = await cli('show', 'lab');
    assert.equal(none.code, 2);
    assert.match(none.err, /LH_ERR_NOT_FOUND: no schedule named "lab"/);
  });
});
