/**
 * Output paths as users type them (spaces, non-ASCII, sub-folders) go to the
 * file system untouched, and every message shows them as typed; the live CSV
 * and `report --format csv --out` are the same bytes. The Windows-only rules
 * (drive letters, colons, device names) are in test/util/output-paths.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startCli } from '../helpers/cli-process.js';
import { tmpDir } from '../helpers/tmp.js';

describe('output paths from the command line', { timeout: 60_000 }, () => {
  it('spaces and non-ASCII in --json/--csv/--log/--out: written where typed, named as typed; live CSV = report CSV', async (t) => {
    const dir = tmpDir(t);
    mkdirSync(path.join(dir, 'My Results'));
    mkdirSync(path.join(dir, 'Other Folder'));
    const run = startCli(
      t,
      ['loopback', '-t', '1', '--workers', '1', '--json', 'My Results/résultat 1.json', '--csv', 'My Results/débit 1.csv', '--log', 'My Results/journal 1.log'],
      dir,
    );
    assert.equal(await run.exited(30_000), 0, run.stderr());
    assert.match(run.stdout(), /^Report written to My Results\/journal 1\.log, My Results\/débit 1\.csv$/m);
    assert.match(run.stdout(), /^Result written to My Results\/résultat 1\.json$/m);
    const again = startCli(t, ['report', '--from', 'My Results/résultat 1.json', '--format', 'csv', '--out', 'Other Folder/débit encore.csv'], dir);
    assert.equal(await again.exited(10_000), 0, again.stderr());
    assert.match(again.stderr(), /^Report written to Other Folder\/débit encore\.csv$/m);
    const live = readFileSync(path.join(dir, 'My Results', 'débit 1.csv'));
    const rendered = readFileSync(path.join(dir, 'Other Folder', 'débit encore.csv'));
    assert.deepEqual([...live.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the byte-order mark first');
    assert.ok(live.equals(rendered), 'the live CSV is byte for byte what report renders from the saved result');
  });

  it('refuses before any traffic, naming the path as typed: two flags on one file, a folder, a missing folder', async (t) => {
    const dir = tmpDir(t);
    mkdirSync(path.join(dir, 'My Results'));
    const same = startCli(t, ['loopback', '-t', '1', '--json', 'my run.csv', '--csv', './my run.csv'], dir);
    assert.equal(await same.exited(10_000), 2);
    assert.match(same.stderr(), /LH_ERR_BAD_ARGUMENT: --json and --csv name the same file \(my run\.csv and \.\/my run\.csv\); give each its own/);
    assert.ok(!existsSync(path.join(dir, 'my run.csv')));
    const folder = startCli(t, ['loopback', '-t', '1', '--csv', 'My Results'], dir);
    assert.equal(await folder.exited(10_000), 2);
    assert.match(folder.stderr(), /LH_ERR_IO: cannot create My Results: it is a folder; give a file name \(EISDIR\)/);
    const missing = startCli(t, ['report', '--from', 'No Such Folder/r 1.json'], dir);
    assert.equal(await missing.exited(10_000), 2);
    assert.match(missing.stderr(), /LH_ERR_IO: cannot read No Such Folder\/r 1\.json: no such file/);
    const noFolder = startCli(t, ['loopback', '-t', '1', '--json', 'No Such Folder/r 1.json'], dir);
    assert.equal(await noFolder.exited(10_000), 2);
    assert.match(noFolder.stderr(), /LH_ERR_IO: cannot create No Such Folder\/r 1\.json: the folder does not exist/);
  });
});
