/**
 * `-Z, --zerocopy` as a user runs it: `loopback -Z -R` says the path in the header, the summary
 * and the JSON (sendfile(2) on Linux), a budget is met exactly, `report --from`
 * renders the same line from the saved file, and -Z with -u exits 2 naming -Z.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { cli } from '../helpers/cli.js';

const LINUX = process.platform === 'linux';
const LINE = /^Zero-copy sender \(-Z\): responder sendfile\(2\) on all 2 streams$/m;

describe('longhaul -Z', { timeout: 120_000 }, () => {
  it(
    'loopback -Z -R -P 2 -n 3,000,001: the responder sendfile(2)s exactly the budget; --explain, JSON and report --from say it',
    { skip: LINUX ? false : 'sendfile is Linux only' },
    async () => {
      const file = path.join(os.tmpdir(), `longhaul-zerocopy-${process.pid}.json`);
      await rm(file, { force: true });
      try {
        const r = await cli(['loopback', '-Z', '-R', '-P', '2', '-n', '3000001', '--explain', '--json', file], 40_000).done;
        assert.equal(r.code, 0, r.stdout + r.stderr);
        assert.match(r.stdout + r.stderr, /zero-copy sender \(-Z\) asked/, 'the header names what was asked');
        assert.match(r.stdout, LINE, r.stdout);
        const result = JSON.parse(await readFile(file, 'utf8')) as LonghaulResult;
        assert.equal(result.params.zeroCopy, true);
        assert.equal(result.total.bytes, 3_000_001);
        for (const s of result.streams) {
          assert.equal(s.send?.sendPath, 'sendfile');
          assert.equal(s.receive?.bytes, s.send?.bytes);
        }
        const log = await cli(['report', '--from', file], 20_000).done;
        assert.equal(log.code, 0, log.stderr);
        assert.match(log.stdout, LINE, log.stdout);
      } finally {
        await rm(file, { force: true });
      }
    },
  );

  it('loopback -Z (the short summary): the controller sendfile(2)s', { skip: LINUX ? false : 'sendfile is Linux only' }, async () => {
    const r = await cli(['loopback', '-Z', '-n', '1000000'], 40_000).done;
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^Zero-copy sender \(-Z\): controller sendfile\(2\) on its 1 stream$/m, r.stdout);
  });

  it('without -Z nothing is said about the send path', async () => {
    const r = await cli(['loopback', '-n', '1000000'], 40_000).done;
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /zero-copy/i);
  });

  it('-u -Z exits 2 naming -Z', async () => {
    const r = await cli(['loopback', '-u', '-Z', '-t', '1'], 20_000).done;
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /-u with -Z: -Z is TCP's sendfile\(2\) sender; datagrams are sent one by one/);
  });
});
