/** The `longhaul` CLI as a newcomer uses it: bad flags exit 2 naming the flag; a loopback run works. */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { cli } from '../helpers/cli.js';

describe('longhaul CLI', { timeout: 90_000 }, () => {
  for (const [args, flag] of [
    [['run', '127.0.0.1', '--streams', '0'], '--streams'],
    [['run', '127.0.0.1', '--streams', '129'], '--streams'],
    [['run', '127.0.0.1', '--buffer', '-1'], '--buffer'],
    [['run', '127.0.0.1', '--seconds', 'abc'], '--seconds'],
    [['run', '127.0.0.1', '--interval', '0.01'], '--interval'],
    [['run', '127.0.0.1', '--window', '12Q'], '--window'],
    [['run', '127.0.0.1', '--bytes', '1M', '--seconds', '3'], '--bytes'],
    [['run', '127.0.0.1', '--reverse', '--bidir'], '--reverse'],
    [['run', '127.0.0.1', '--path-rate', '2000g'], '--path-rate'],
    [['loopback', '--stream', '2'], '--stream'],
    [['listen', '--port', '70000'], '--port'],
    [['run', 'host:99999'], 'HOST'],
  ] as const) {
    it(`${args.slice(1).join(' ')} → exit 2 naming ${flag}`, async () => {
      const r = await cli([...args]).done;
      assert.equal(r.code, 2, `exit code; stdout: ${r.stdout} stderr: ${r.stderr}`);
      assert.ok(r.stderr.includes(flag), `stderr names ${flag}: ${r.stderr}`);
    });
  }

  it('run without a host → exit 2', async () => {
    const r = await cli(['run']).done;
    assert.equal(r.code, 2);
    assert.match(r.stderr, /host/);
  });

  it('--help and --version exit 0', async () => {
    const h = await cli(['--help']).done;
    assert.equal(h.code, 0);
    assert.match(h.stdout, /loopback/);
    const v = await cli(['--version']).done;
    assert.equal(v.code, 0);
    assert.match(v.stdout, /^\d+\.\d+\.\d+/);
  });

  it('loopback --bytes 20M --json: exit 0, the compact default (interval rows, a SUM row, the answer), a valid result file; -V the detail', async () => {
    const file = path.join(os.tmpdir(), `longhaul-cli-${process.pid}.json`);
    try {
      const r = await cli(['loopback', '--bytes', '20M', '--streams', '2', '--interval', '0.1', '--json', file]).done;
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^\[SUM\] [\d.]+-[\d.]+ s /m, 'iperf3-like: one row per stream, then a SUM row');
      assert.match(r.stdout, /^Result: [\d.]+ [kMG]bit\/s · [\w-]+/m, 'the answer names the rate and the verdict');
      assert.doesNotMatch(r.stdout, /per-stream sum|What-if|Advice \(/, 'the detail waits for --explain');
      const lines = r.stdout.trimEnd().split('\n');
      const rows = lines.filter((l) => /^\[ *\d+\.\d+- *\d+\.\d+ s\]/.test(l)).length;
      assert.ok(lines.length <= rows + 12, `${lines.length} lines for ${rows} interval rows:\n${r.stdout}`);
      const v = await cli(['loopback', '--bytes', '4M', '-V']).done;
      assert.equal(v.code, 0, v.stdout + v.stderr);
      assert.match(v.stdout, /wall-clock aggregate/);
      assert.match(v.stdout, /per-stream sum/);
      const result = JSON.parse(await readFile(file, 'utf8')) as LonghaulResult;
      assert.equal(result.schema, 'longhaul.result/1');
      assert.equal(result.total.bytes, 20 * 1024 * 1024);
      assert.equal(result.params.streams, 2);
      assert.equal(result.partial, false);
    } finally {
      await rm(file, { force: true });
    }
  });

  it('loopback to an unwritable --json path: refused before any traffic, exit 2, a clear message', async () => {
    const r = await cli(['loopback', '--bytes', '1M', '--json', '/nonexistent-dir/x.json']).done;
    assert.equal(r.code, 2);
    assert.match(r.stderr, /LH_ERR_IO: cannot create \/nonexistent-dir\/x\.json: the folder does not exist/);
    assert.doesNotMatch(r.stdout, /Total/);
  });
});
