/**
 * The iperf3 server where the addon owns data connections (Windows; forced here with
 * LONGHAUL_DATA_CONN=owned): the port is taken over for the streams of a test that asks for a
 * window (engine/iperf3/iperf3-port-takeover.ts). On Linux the OS refuses that bind while the control
 * connection holds the port (no SO_REUSEADDR on the addon's socket), which is the path tested
 * here: Node listens again before CREATE_STREAMS, the test runs whole, and the window is recorded
 * as not applied with the OS's reason. The applied path is test/windows/iperf3-window-wine.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { DATA_CONN_ENV } from '../../electron/native/switches.js';
import { nativeSockets } from '../../electron/native/load-native.js';
import { Iperf3Server } from '../../electron/engine/iperf3/iperf3-server.js';
import type { LonghaulError } from '../../electron/util/errors.js';
import { HAVE_IPERF3, runIperf3 } from '../helpers/iperf3.js';

const skip =
  process.platform !== 'linux'
    ? "the refused takeover is Linux's behaviour"
    : !HAVE_IPERF3
      ? 'no /usr/bin/iperf3'
      : !nativeSockets().api?.owned
        ? 'the addon cannot own connections here'
        : false;

describe('iperf3 server, owned data connections, the port cannot be taken over', { skip, timeout: 60_000 }, () => {
  let server: Iperf3Server;
  let port = 0;
  const before0 = process.env[DATA_CONN_ENV];
  before(async () => {
    process.env[DATA_CONN_ENV] = 'owned';
    server = new Iperf3Server({ port: 0, host: '127.0.0.1' });
    port = (await server.listen()).port;
  });
  after(async () => {
    await server.close();
    if (before0 === undefined) delete process.env[DATA_CONN_ENV];
    else process.env[DATA_CONN_ENV] = before0;
  });

  it('iperf3 -c -w 64K -P 2, three times: whole, the window recorded as not applied with why, the port still served', async () => {
    for (let i = 0; i < 3; i++) {
      const ended = new Promise<{ result: LonghaulResult | null; err: LonghaulError | null }>((resolve) =>
        server.once('session-end', (result, err) => resolve({ result, err })),
      );
      const run = await runIperf3(['-c', '127.0.0.1', '-p', String(port), '-w', '64K', '-n', '20M', '-P', '2', '-J'], 20_000);
      assert.equal(run.code, 0, `run ${i}: ${run.stderr} ${run.json?.error ?? ''}`);
      const { result, err } = await ended;
      assert.equal(err, null);
      assert.ok(result && !result.partial, result?.partialReason ?? 'no result');
      assert.equal(result.total.bytes, run.json?.end?.['sum_received']?.bytes);
      for (const s of result.streams) {
        const sock = s.receive?.socket;
        assert.equal(sock?.requestedBytes, 65536);
        assert.equal(sock?.appliedBeforeHandshake, false, `stream ${s.id}: not applied, and said so`);
        const why = sock?.unavailable?.find((u) => u.field === 'window')?.reason ?? '';
        assert.match(why, /could not be taken over/, `stream ${s.id}: ${JSON.stringify(sock?.unavailable)}`);
        assert.match(why, /in use/i);
      }
    }
    assert.equal(server.busy, false);
  });
});
