/**
 * Sweeps over real sockets on 127.0.0.1: a whole 2 × 2 sweep through the CLI
 * (its CSV's cell medians checked against its run rows), a CLI killed after
 * its third run and resumed, and a partner that vanishes mid-run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { SweepFile, SweepProgress } from '../../electron/contract/sweep.js';
import { runKey, runOrder } from '../../electron/contract/sweep-plan.js';
import { loadTrust } from '../../electron/security/load-trust.js';
import { LoopbackTarget } from '../../electron/sweep/run-target.js';
import { newSweepFile, readSweepFile } from '../../electron/sweep/sweep-file.js';
import { SweepRunner } from '../../electron/sweep/sweep-runner.js';
import { cli, waitForOutput } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';
import { plan } from './fixtures.js';

const SWEEP_2X2 = ['sweep', '--loopback', '--window', '64K,default', '--buffer', '4K,128K', '--repeat', '2', '--seconds', '1', '--pause', '200ms'];

function csvRecords(file: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
  const cols = head!.split(',');
  // No cell of these sweeps holds a comma or a quote (no errors), so a plain split is exact.
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])));
}

describe('sweep on loopback', { timeout: 120_000 }, () => {
  it('a 2 × 2 sweep, 2 repeats: 8 run rows, 4 cell rows whose medians are those of their runs', async (t) => {
    const dir = tmpDir(t);
    const json = path.join(dir, 's.json');
    const csv = path.join(dir, 's.csv');
    const { child, done } = cli([...SWEEP_2X2, '--json', json, '--csv', csv], 60_000);
    t.after(() => child.kill('SIGKILL'));
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /4 cells × 2 repeats × 1 s \+ 7 pauses × 0\.2 s = 9\.4 s/);
    assert.equal(r.stdout.match(/^\[\d\/8\] cell \d #\d .* Mbit\/s/gm)?.length, 8);
    assert.match(r.stdout, /median Mbit\/s/);
    const rows = csvRecords(csv);
    const runs = rows.filter((x) => x.row_type === 'run');
    const cells = rows.filter((x) => x.row_type === 'cell');
    assert.equal(runs.length, 8);
    assert.equal(cells.length, 4);
    assert.deepEqual(new Set(runs.map((x) => `${x.cell}:${x.repeat}`)).size, 8);
    for (const c of cells) {
      const mine = runs.filter((x) => x.cell === c.cell);
      assert.ok(mine.every((x) => x.status === 'done' && x.window_bytes === c.window_bytes && x.buffer_bytes === c.buffer_bytes));
      for (const col of ['received_mbit_per_s', 'stream_sum_mbit_per_s'] as const) {
        const v = mine.map((x) => Number(x[col])).sort((a, b) => a - b);
        assert.ok(
          v.every((x) => x > 0),
          `${col} measured`,
        );
        assert.ok(Math.abs(Number(c[`${col}_median`]) - (v[0]! + v[1]!) / 2) < 1e-5, `cell ${c.cell} ${col} median`);
        assert.equal(Number(c[`${col}_min`]), v[0]);
        assert.equal(Number(c[`${col}_max`]), v[1]);
      }
    }
    const file = await readSweepFile(json);
    assert.equal(file.complete, true);
    assert.ok(file.runs.every((x) => x.result?.schema === 'longhaul.result/1'));
  });

  it('killed (SIGKILL) after its third run, --resume runs only the other five', async (t) => {
    const dir = tmpDir(t);
    const json = path.join(dir, 's.json');
    const first = cli([...SWEEP_2X2, '--seed', '7', '--json', json], 60_000);
    t.after(() => first.child.kill('SIGKILL'));
    await waitForOutput(first.child, /^\[3\/8\] .*$/m, 40_000);
    first.child.kill('SIGKILL');
    await first.done;
    const saved = await readSweepFile(json);
    assert.equal(saved.runs.length, 3, 'the three finished runs are on disk');
    const order = runOrder(saved.plan);
    assert.deepEqual(saved.runs.map(runKey), order.slice(0, 3).map(runKey));

    const second = cli(['sweep', '--resume', json], 60_000);
    t.after(() => second.child.kill('SIGKILL'));
    const r = await second.done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /5 of 8 runs/);
    const after = await readSweepFile(json);
    assert.equal(after.id, saved.id);
    assert.equal(after.runs.length, 8);
    assert.deepEqual(after.runs.slice(3).map(runKey), order.slice(3).map(runKey), 'only the five missing, in the plan order');
    assert.deepEqual(
      after.runs.map((x) => x.sequence),
      [0, 1, 2, 3, 4, 5, 6, 7],
    );
    assert.equal(after.complete, true);
  });

  it('a partner that vanishes mid-run: finished runs kept, the broken one marked, the sweep stops instead of going on', async (t) => {
    const dir = tmpDir(t);
    const json = path.join(dir, 's.json');
    const target = new LoopbackTarget(await loadTrust(path.join(dir, 'trust')));
    t.after(() => target.close());
    const p = plan({
      dimensions: [{ name: 'streams', values: [1, 2] }],
      repeat: 4,
      pauseSeconds: 0.2,
      base: { ...plan().base, seconds: 2, intervalSeconds: 0.5 },
    });
    const runner = new SweepRunner({ file: newSweepFile(p), jsonPath: json, target });
    const events: SweepProgress[] = [];
    runner.on('progress', (e) => {
      events.push(e);
      if (e.kind === 'run-start' && e.position === 2) setTimeout(() => target.responderProcess?.kill('SIGKILL'), 1000);
    });
    const final = await runner.start();
    assert.equal(runner.state, 'stopped');
    const stopped = events.find((e) => e.kind === 'stopped');
    assert.equal(stopped?.kind === 'stopped' && stopped.reason, 'partner-gone');
    const disk: SweepFile = await readSweepFile(json);
    assert.deepEqual(
      disk.runs.map((x) => x.sequence),
      final.runs.map((x) => x.sequence),
    );
    assert.equal(disk.runs[0]!.status, 'done');
    assert.ok(disk.runs[0]!.bitsPerSecond! > 0);
    assert.notEqual(disk.runs[1]!.status, 'done', 'the broken run is marked');
    assert.ok(disk.runs[1]!.error?.code.startsWith('LH_ERR_'));
    assert.equal(disk.runs.length, 3, 'one more attempt, then it stops: 8 planned');
    assert.equal(disk.runs[2]!.status, 'failed');
    assert.equal(disk.complete, false);
  });
});
