/** The sweep file: atomic saves, a clean read back, and bad files refused with LH_ERR_BAD_SWEEP, untouched. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { newSweepFile, readSweepFile, saveSweepFile, withRun } from '../../electron/sweep/sweep-file.js';
import { formatSweepCsv } from '../../electron/sweep/sweep-csv.js';
import { tmpDir } from '../helpers/tmp.js';
import { plan, run } from './fixtures.js';

describe('sweep file', () => {
  it('saves atomically (no temp file left) and reads back the same runs and summaries', async (t) => {
    const dir = tmpDir(t);
    const file = path.join(dir, 's.json');
    const p = plan();
    let f = newSweepFile(p);
    f = withRun(f, run(p, 0, 0, 'done', 10e6));
    f = withRun(f, run(p, 0, 1, 'failed', null, 1));
    saveSweepFile(file, f);
    assert.deepEqual(readdirSync(dir), ['s.json']);
    const back = await readSweepFile(file);
    assert.equal(back.id, f.id);
    assert.equal(back.runs.length, 2);
    assert.deepEqual(back.cells[0]!.bitsPerSecond, { median: 10e6, min: 10e6, max: 10e6 });
    assert.equal(back.complete, false);
    assert.match(back.title, /loopback: windowBytes × bufferBytes/);
  });

  it('refuses a bad plan when a sweep is made', () => {
    assert.throws(() => newSweepFile(plan({ repeat: 0 })), { code: 'LH_ERR_BAD_SWEEP' });
    assert.throws(
      () =>
        newSweepFile(
          plan({
            dimensions: [
              { name: 'streams', values: [1] },
              { name: 'streams', values: [2] },
            ],
          }),
        ),
      { code: 'LH_ERR_BAD_SWEEP', message: /twice/ },
    );
  });

  it('bad files: not JSON, wrong schema, wrong types, runs outside the plan, missing file; each clear, none changed', async (t) => {
    const dir = tmpDir(t);
    const p = plan();
    const good = withRun(newSweepFile(p), run(p, 0, 0, 'done', 1));
    const cases: [string, string, RegExp][] = [
      ['not-json', '{"schema": ', /is not JSON/],
      ['result', JSON.stringify({ schema: 'longhaul.result/1' }), /not a valid longhaul\.sweep\/1/],
      ['types', JSON.stringify({ ...good, plan: { ...good.plan, repeat: 'three' } }), /at plan\.repeat/],
      ['stray', JSON.stringify({ ...good, runs: [{ ...good.runs[0], cell: 99 }] }), /outside the plan/],
      ['bad-result', JSON.stringify({ ...good, runs: [{ ...good.runs[0], result: { schema: 'x' } }] }), /at runs\.0\.result/],
    ];
    for (const [name, text, message] of cases) {
      const file = path.join(dir, `${name}.json`);
      writeFileSync(file, text);
      await assert.rejects(readSweepFile(file), { code: 'LH_ERR_BAD_SWEEP', message }, name);
      assert.equal(readFileSync(file, 'utf8'), text, `${name} left as it was`);
    }
    await assert.rejects(readSweepFile(path.join(dir, 'none.json')), { code: 'LH_ERR_IO', message: /no such file/ });
  });

  it('CSV: the run CSV conventions, one row per run then one per cell', () => {
    const p = plan();
    let f = newSweepFile(p);
    f = withRun(f, run(p, 0, 0, 'done', 10e6));
    f = withRun(f, { ...run(p, 0, 1, 'failed', null, 1), error: { code: 'LH_ERR_PEER_GONE', message: '=cmd()' } });
    const csv = formatSweepCsv(f);
    assert.ok(csv.startsWith('\uFEFFrow_type,'));
    const lines = csv.slice(1).split('\r\n').filter(Boolean);
    assert.equal(lines.length, 1 + 2 + 6);
    assert.match(lines[0]!, /received_mbit_per_s,stream_sum_mbit_per_s,received_mbit_per_s_median/);
    assert.equal(lines.filter((l) => l.startsWith('run,')).length, 2);
    assert.equal(lines.filter((l) => l.startsWith('cell,')).length, 6);
    assert.match(lines[2]!, /'=cmd\(\)/, 'a formula in a peer message is defused');
    // Numbered from 1, as the Sweep screen and the HTML report number them: the first cell's second repeat.
    const [header, , second] = lines.map((l) => l.split(','));
    const col = (name: string): number => header!.indexOf(name);
    assert.deepEqual([second![col('cell')], second![col('repeat')], second![col('sequence')]], ['1', '2', '2']);
    assert.equal(lines.filter((l) => l.startsWith('cell,'))[0]!.split(',')[col('cell')], '1');
  });
});
