/**
 * `-O` through iperf3, both ways, with the real iperf3: `listen --iperf3` serves `iperf3 -c -t 2 -O 1`
 * (a 3-second run whose first second is omitted) and its receiver line for the client covers the
 * 2 s after it, close to iperf3's own sender line; `run --iperf3 -t 3 -O 1` asks `iperf3 -s` for
 * its own omit, and iperf3 prints the first second omitted.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readResultFile } from '../../electron/report/result-file.js';
import { cli, waitForOutput } from '../helpers/cli.js';
import { HAVE_IPERF3, runIperf3 } from '../helpers/iperf3.js';

describe('-O, --omit with iperf3', { timeout: 90_000, skip: HAVE_IPERF3 ? false : 'no /usr/bin/iperf3' }, () => {
  let dir = '';
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('listen --iperf3 honours a client -O 1: the omitted second is out of what it reports and records', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'lh-iperf3-omit-'));
    const listener = cli(['listen', '--iperf3', '--port', '0', '--bind', '127.0.0.1', '--once'], 40_000, { LONGHAUL_DATA_DIR: dir });
    try {
      const m = await waitForOutput(listener.child, /listening on 127\.0\.0\.1:(\d+)/);
      const client = await runIperf3(['-c', '127.0.0.1', '-p', m[1]!, '-t', '2', '-O', '1', '-J'], 30_000);
      assert.equal(client.code, 0, `iperf3 exit; ${client.stderr} ${client.json?.error ?? ''}`);
      const end = client.json!.end!;
      const sent = end['sum_sent']!;
      const received = end['sum_received']!;
      assert.ok(received.seconds > 1.8 && received.seconds < 2.5, `the server's receiver line covers the 2 s after the omitted one: ${received.seconds} s`);
      const ratio = received.bytes / sent.bytes;
      assert.ok(ratio > 0.85 && ratio < 1.15, `server received ${received.bytes} B against ${sent.bytes} B sent after the omitted second`);
      const done = await listener.done;
      assert.equal(done.code, 0, `listener exit; ${done.stdout} ${done.stderr}`);
      const names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
      const r = await readResultFile(path.join(dir, names[0]!));
      assert.equal(r.params.omitSeconds, 1);
      assert.equal(r.params.seconds, 3, "iperf3's -t runs after its -O");
      assert.equal(r.intervals[0]?.omitted, true);
    } finally {
      listener.child.kill('SIGKILL');
    }
  });

  it('run --iperf3 -t 3 -O 1 sends iperf3 its own omit', async () => {
    const port = String(25_600 + (process.pid % 300));
    const s = runIperf3(['-s', '-1', '-p', port, '-J'], 40_000);
    await new Promise((resolve) => setTimeout(resolve, 800));
    const r = await cli(['run', `127.0.0.1:${port}`, '--iperf3', '-t', '3', '-O', '1'], 40_000).done;
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Omitted \(--omit 1 s\)/);
    const srv = await s;
    const params = (srv.json?.start as { test_start?: { omit?: number; duration?: number } } | undefined)?.test_start;
    assert.equal(params?.omit, 1, `iperf3 -s was asked to omit 1 s: ${JSON.stringify(srv.json?.start)}`);
    assert.equal(params?.duration, 2, 'and to count 2 s after it');
  });
});
