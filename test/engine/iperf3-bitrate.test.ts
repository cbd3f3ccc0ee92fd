/**
 * --bitrate across iperf3 (Debian's iperf3 3.12) on 127.0.0.1: Longhaul's iperf3 client sends
 * it as iperf3's own `bandwidth` key, so `iperf3 -s` paces its senders under -R; Longhaul's
 * iperf3 server honours an iperf3 client's `-b` for the streams it sends (-R). In both, the
 * paced side is the other program, and what arrives is what it was asked for (±15 %: the
 * machine is shared, and iperf3 paces by its own 1 ms timer).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { startIperf3Run } from '../../electron/engine/iperf3/iperf3-client.js';
import { Iperf3Server } from '../../electron/engine/iperf3/iperf3-server.js';
import { HAVE_IPERF3, freePort, runIperf3, startIperf3Server } from '../helpers/iperf3.js';

const RATE = 20e6;
const SECONDS = 3;

function near(measured: number, asked: number, what: string): void {
  const ratio = measured / asked;
  assert.ok(Math.abs(ratio - 1) <= 0.15, `${what}: ${(measured / 1e6).toFixed(2)} Mbit/s for ${asked / 1e6} Mbit/s asked (ratio ${ratio.toFixed(3)})`);
}

describe('--bitrate through iperf3 (Debian iperf3)', { skip: HAVE_IPERF3 ? false : 'no /usr/bin/iperf3', timeout: 90_000 }, () => {
  it("longhaul's iperf3 client -R -b 20M: iperf3 -s sends at 20 Mbit/s", { timeout: 30_000 }, async () => {
    const port = await freePort();
    const { exit } = await startIperf3Server(port, 25_000);
    const params = {
      streams: 1,
      bufferBytes: 128 * 1024,
      windowBytes: null,
      bytes: null,
      seconds: SECONDS,
      direction: 'reverse' as const,
      intervalSeconds: 1,
      bitrateBitsPerSec: RATE,
    };
    const result = await startIperf3Run({ host: '127.0.0.1', port, params }).result;
    const server = await exit;
    assert.equal(server.code, 0, server.stderr);
    assert.ok(!result.partial, result.partialReason ?? '');
    assert.equal(result.params.bitrateBitsPerSec, RATE);
    near(result.total.bitsPerSecond ?? 0, RATE, 'received from iperf3 -s');
    assert.equal(result.diagnosis?.[0]?.verdict, 'application-limited', result.diagnosis?.[0]?.sentence);
    assert.match(result.diagnosis?.[0]?.sentence ?? '', /paced at 20 Mbit\/s per stream by --bitrate/);
  });

  it("iperf3 -c -R -b 20M → longhaul's iperf3 server: it sends at 20 Mbit/s, kernel-paced", { timeout: 30_000 }, async (t) => {
    const server = new Iperf3Server({ port: 0, host: '127.0.0.1' });
    t.after(() => server.close());
    const { port } = await server.listen();
    const ended = new Promise<LonghaulResult | null>((resolve) => server.once('session-end', (r) => resolve(r)));
    const client = await runIperf3(['-c', '127.0.0.1', '-p', String(port), '-J', '-R', '-b', '20M', '-t', String(SECONDS)], 25_000);
    const result = await ended;
    assert.equal(client.code, 0, client.stderr);
    assert.ok(result && !result.partial, `a complete result: ${result?.partialReason}`);
    assert.equal(result.params.bitrateBitsPerSec, RATE);
    const received = client.json?.end?.['sum_received'];
    assert.ok(received, 'iperf3 reported sum_received');
    near((received.bytes * 8) / received.seconds, RATE, 'iperf3 received');
    const side = result.pacing?.sides.find((s) => s.side === 'responder');
    assert.equal(side?.mechanism, 'kernel SO_MAX_PACING_RATE', result.pacing?.note);
  });
});
