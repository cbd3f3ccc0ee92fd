/**
 * -Z across iperf3 (Debian's iperf3 3.12) on 127.0.0.1: Longhaul's iperf3 client sends with
 * sendfile(2) and asks iperf3's server for it under -R (`"zerocopy": 1`, whose own call is then
 * unknown to the result); Longhaul's iperf3 server sends with sendfile(2) when an iperf3 client
 * asks -Z -R.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { ZERO_COPY_FIELD } from '../../electron/contract/send-path.js';
import { startIperf3Run } from '../../electron/engine/iperf3/iperf3-client.js';
import { Iperf3Server } from '../../electron/engine/iperf3/iperf3-server.js';
import { HAVE_IPERF3, freePort, runIperf3, startIperf3Server } from '../helpers/iperf3.js';

const SKIP = !HAVE_IPERF3 ? 'no /usr/bin/iperf3' : process.platform !== 'linux' ? 'sendfile is Linux only' : false;

const params = (direction: 'forward' | 'reverse') => ({
  streams: 2,
  bufferBytes: 128 * 1024,
  windowBytes: null,
  bytes: null,
  seconds: 1,
  direction,
  intervalSeconds: 1,
  zeroCopy: true as const,
});

describe('-Z through iperf3 (Debian iperf3)', { skip: SKIP, timeout: 90_000 }, () => {
  it("longhaul's iperf3 client -Z → iperf3 -s: both of its streams sendfile(2), and iperf3 received them", { timeout: 30_000 }, async () => {
    const port = await freePort();
    const { exit } = await startIperf3Server(port, 25_000);
    const result = await startIperf3Run({ host: '127.0.0.1', port, params: params('forward') }).result;
    const server = await exit;
    assert.equal(server.code, 0, server.stderr);
    assert.ok(!result.partial, result.partialReason ?? '');
    assert.equal(result.streams.length, 2);
    for (const s of result.streams) {
      assert.equal(s.send?.sendPath, 'sendfile', `stream ${s.id}`);
      assert.ok(s.bytes > 0);
    }
    assert.deepEqual(
      (result.unavailable ?? []).filter((u) => u.field === ZERO_COPY_FIELD),
      [],
    );
  });

  it("longhaul's iperf3 client -Z -R → iperf3 -s: the run completes and iperf3's call reads unknown, not copy", { timeout: 30_000 }, async () => {
    const port = await freePort();
    const { exit } = await startIperf3Server(port, 25_000);
    const result = await startIperf3Run({ host: '127.0.0.1', port, params: params('reverse') }).result;
    const server = await exit;
    assert.equal(server.code, 0, server.stderr);
    assert.ok(!result.partial, result.partialReason ?? '');
    assert.ok((result.total.bytes ?? 0) > 0);
    for (const s of result.streams) assert.equal(s.send?.sendPath, undefined, 'iperf3 does not say');
    const why = (result.unavailable ?? []).filter((u) => u.field === ZERO_COPY_FIELD);
    assert.equal(why.length, 1, JSON.stringify(why));
    assert.match(why[0]!.reason, /did not say how it sent \(iperf3, or a Longhaul older than -Z\): unknown/);
  });

  it("iperf3 -c -Z -R → longhaul's iperf3 server: its senders sendfile(2)", { timeout: 30_000 }, async (t) => {
    const server = new Iperf3Server({ port: 0, host: '127.0.0.1' });
    t.after(() => server.close());
    const { port } = await server.listen();
    const ended = new Promise<LonghaulResult | null>((resolve) => server.once('session-end', (r) => resolve(r)));
    const client = await runIperf3(['-c', '127.0.0.1', '-p', String(port), '-J', '-Z', '-R', '-P', '2', '-t', '1'], 25_000);
    const result = await ended;
    assert.equal(client.code, 0, client.stderr);
    assert.ok(result && !result.partial, `a complete result: ${result?.partialReason}`);
    assert.equal(result.params.zeroCopy, true, 'the client asked -Z ("zerocopy": 1)');
    for (const s of result.streams) assert.equal(s.send?.sendPath, 'sendfile', `stream ${s.id} (${s.send?.side})`);
    const received = client.json?.end?.['sum_received'];
    assert.ok(received && received.bytes > 0, 'iperf3 received bytes');
  });
});
