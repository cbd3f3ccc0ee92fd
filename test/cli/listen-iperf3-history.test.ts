/**
 * `longhaul listen --iperf3` saves each served test to History: a real `iperf3 -c -J` against
 * it, then the file is in the results folder under History's name, reads back as a
 * `longhaul.result/1`, counts iperf3's bytes to the byte, and `longhaul report --from` renders it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { readResultFile } from '../../electron/report/result-file.js';
import { cli, waitForOutput } from '../helpers/cli.js';
import { HAVE_IPERF3, runIperf3 } from '../helpers/iperf3.js';

const BYTES = 50 * 1024 * 1024;

describe('longhaul listen --iperf3 → History', { timeout: 60_000, skip: HAVE_IPERF3 ? false : 'no /usr/bin/iperf3' }, () => {
  let dir = '';
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a byte-limited iperf3 -c run lands in the results folder, says where, and re-renders', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'lh-iperf3-history-'));
    const listener = cli(['listen', '--iperf3', '--port', '0', '--bind', '127.0.0.1', '--once'], 40_000, { LONGHAUL_DATA_DIR: dir });
    try {
      const m = await waitForOutput(listener.child, /listening on 127\.0\.0\.1:(\d+)/);
      const client = await runIperf3(['-c', '127.0.0.1', '-p', m[1]!, '-n', String(BYTES), '-J'], 30_000);
      assert.equal(client.code, 0, `iperf3 exit; ${client.stderr} ${client.json?.error ?? ''}`);
      assert.equal(client.json?.error, undefined);
      const done = await listener.done;
      assert.equal(done.code, 0, `listener exit; ${done.stdout} ${done.stderr}`);
      const names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
      assert.equal(names.length, 1, `one result file in ${dir}: ${names.join(', ')}`);
      const file = path.join(dir, names[0]!);
      assert.ok(done.stdout.includes(`saved to History: ${file}`), `the console says where: ${done.stdout}`);
      const r = await readResultFile(file);
      assert.equal(r.schema, 'longhaul.result/1');
      assert.match(names[0]!, new RegExp(`_${r.id}\\.json$`), 'History names files <startedAt>_<id>.json');
      assert.match(r.controller.software, /^iperf3 /);
      const theirs = client.json!.end!['sum_received']!.bytes;
      assert.equal(theirs, BYTES, 'iperf3 received-by-server figure is the whole -n');
      assert.equal(r.total.bytes, theirs, 'Longhaul counted exactly what iperf3 says the server received');
      const report = await cli(['report', '--from', file, '--format', 'console']).done;
      assert.equal(report.code, 0, `report --from: ${report.stderr}`);
      assert.ok(report.stdout.includes(`Run ${r.id}`), `the report is of this run: ${report.stdout}`);
    } finally {
      listener.child.kill('SIGKILL');
    }
  });
});
