/**
 * A flood of idle connections from a stranger's address must not starve a
 * paired controller whose handshake is slow. Over a 300 ms RTT link (the local
 * delay proxy) a TLS handshake and the first messages take about a second; a
 * stranger opening idle connections faster than the pool's cap per handshake
 * used to make the real controller's connection always the oldest, evicted:
 * the run failed in state "hello" while the flood lasted. Now an address can
 * only crowd out its own connections, and idle ones go first.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';
import { startResponder, within } from '../helpers/net.js';
import { startProxy } from '../proxy/helpers.js';

const FLOOD_PER_SECOND = 150;
const FLOOD_SECONDS = 8;

describe('an idle-connection flood from another address', { timeout: 60_000 }, () => {
  it(`${FLOOD_PER_SECOND}/s idle connections from 127.0.0.2 do not stop a paired run over a 300 ms RTT link`, async () => {
    const { responder, port, security } = await startResponder({ maxPendingConnections: 32 });
    const { proxy, port: slowPort } = await startProxy(port, { delayMs: 150, rateBitsPerSec: null, windowBytes: null, slowstart: false, lossRatio: 0 });
    const sockets = new Set<net.Socket>();
    let opened = 0;
    let dropped = 0;
    const flood = setInterval(() => {
      for (let i = 0; i < FLOOD_PER_SECOND / 20 && opened < FLOOD_PER_SECOND * FLOOD_SECONDS; i++) {
        opened++;
        const s = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
        s.on('error', () => undefined);
        s.once('close', () => {
          dropped++;
          sockets.delete(s);
        });
        sockets.add(s);
      }
    }, 50);
    try {
      await new Promise((r) => setTimeout(r, 1000)); // the flood is in full swing
      const result = await within(
        startRun({ host: '127.0.0.1', port: slowPort, security, params: { ...DEFAULT_PARAMS, seconds: 2, intervalSeconds: 0.5 } }).result,
        30_000,
        'the paired run',
      );
      assert.deepEqual(result.errors, [], 'the run got through the flood');
      assert.equal(result.partial, false, result.partialReason ?? '');
      assert.ok(result.total.bytes > 0);
      assert.ok(dropped > 100, `the flood was being dropped meanwhile (${dropped} of ${opened})`);
    } finally {
      clearInterval(flood);
      for (const s of sockets) s.destroy();
      await proxy.close();
      await responder.close();
    }
  });
});
