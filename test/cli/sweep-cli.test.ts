/** `longhaul sweep`'s arguments: every bad value exits 2 naming its flag; a file that cannot be resumed exits 2 and is left as it was. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cli } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';

describe('longhaul sweep arguments', { timeout: 60_000 }, () => {
  for (const [args, flag] of [
    [['--loopback', '--window', '64K,12Q'], '--window'],
    [['--loopback', '--window', '64K,,128K'], '--window'],
    [['--loopback', '--buffer', '4K,default'], '--buffer'],
    [['--loopback', '--streams', '1,0'], '--streams'],
    [['--loopback', '--streams', '2,2'], '--streams'],
    [['--loopback', '--mss', 'default,10'], '--mss'],
    [['--loopback', '--direction', 'forward,sideways'], '--direction'],
    [['--loopback', '--link', 'lan,moon'], '--link'],
    [['--loopback', '--path', 'direct,tunnel'], '--path'],
    [['--loopback', '--repeat', '0'], '--repeat'],
    [['--loopback', '--pause', '-1s'], '--pause'],
    [['--loopback', '--order', 'random'], '--order'],
    [['--loopback', '--seconds', 'abc'], '--seconds'],
    [['--loopback', '--bitrate', '5Q'], '--bitrate'],
    [['--loopback', '--congestion', 'bbrr'], '--congestion'],
    [['127.0.0.1', '--link', 'lan'], '--link'],
    [['127.0.0.1', '--loopback'], '--loopback'],
    [['host:99999'], 'HOST'],
    [[], 'HOST'],
  ] as const) {
    it(`sweep ${args.join(' ')} → exit 2 naming ${flag}`, async () => {
      const r = await cli(['sweep', ...args]).done;
      assert.equal(r.code, 2, `exit code; stdout: ${r.stdout} stderr: ${r.stderr}`);
      assert.ok(r.stderr.includes(flag), `stderr names ${flag}: ${r.stderr}`);
      assert.doesNotMatch(r.stdout, /Sweep /, 'nothing started');
    });
  }

  it('--resume of a damaged file, or with plan flags: exit 2, the file untouched, nothing run', async (t) => {
    const dir = tmpDir(t);
    const file = path.join(dir, 'bad.json');
    const text = '{"schema": "longhaul.sweep/1", "runs": []}';
    writeFileSync(file, text);
    const r = await cli(['sweep', '--resume', file]).done;
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /LH_ERR_BAD_SWEEP: .*bad\.json is not a valid longhaul\.sweep\/1 sweep/);
    assert.equal(readFileSync(file, 'utf8'), text);
    const mixed = await cli(['sweep', '--resume', file, '--window', '64K']).done;
    assert.equal(mixed.code, 2);
    assert.match(mixed.stderr, /--resume: .*--window/);
  });

  it('an existing --json without --force: exit 2 before any run', async (t) => {
    const dir = tmpDir(t);
    const file = path.join(dir, 'there.json');
    writeFileSync(file, 'keep');
    const r = await cli(['sweep', '--loopback', '--json', file]).done;
    assert.equal(r.code, 2);
    assert.match(r.stderr, /LH_ERR_FILE_EXISTS/);
    assert.equal(readFileSync(file, 'utf8'), 'keep');
  });
});
