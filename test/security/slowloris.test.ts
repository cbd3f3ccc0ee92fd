/**
 * Slowloris: 200 connections each sending one byte per second of a TLS
 * ClientHello. Every one is dropped by the responder (its deadline, or
 * evicted as the oldest waiting), and a paired run during the attack succeeds.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';
import { startResponder, within } from '../helpers/net.js';

const ATTACKERS = 200;
const DEADLINE_MS = 3000;

describe('slowloris', { timeout: 60_000 }, () => {
  it(`${ATTACKERS} connections at 1 byte/s are all dropped within the ${DEADLINE_MS / 1000} s deadline; a paired run meanwhile succeeds`, async () => {
    const { responder, port, security } = await startResponder({ identifyTimeoutMs: DEADLINE_MS, maxPendingConnections: 32 });
    const hello = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]);
    const lifetimes: number[] = [];
    const timers: NodeJS.Timeout[] = [];
    const sockets: net.Socket[] = [];
    const allClosed = new Promise<void>((resolve) => {
      let open = ATTACKERS;
      for (let i = 0; i < ATTACKERS; i++) {
        const opened = Date.now();
        const s = net.connect({ host: '127.0.0.1', port });
        sockets.push(s);
        s.on('error', () => undefined);
        let sent = 0;
        const drip = setInterval(() => {
          if (!s.destroyed && sent < hello.length) s.write(hello.subarray(sent, ++sent));
        }, 1000);
        timers.push(drip);
        s.once('connect', () => s.write(hello.subarray(0, ++sent)));
        s.once('close', () => {
          clearInterval(drip);
          lifetimes.push(Date.now() - opened);
          if (--open === 0) resolve();
        });
      }
    });
    try {
      await new Promise((r) => setTimeout(r, 300)); // the attack is in place
      const run = startRun({ host: '127.0.0.1', port, security, params: { ...DEFAULT_PARAMS, seconds: 2, intervalSeconds: 0.5 } });
      const result = await within(run.result, 20_000, 'paired run under attack');
      assert.equal(result.partial, false, result.partialReason ?? '');
      assert.ok(result.total.bytes > 0);
      await within(allClosed, DEADLINE_MS + 5000, 'every slow connection dropped');
      const longest = Math.max(...lifetimes);
      assert.ok(longest < DEADLINE_MS + 2000, `longest slow connection lived ${longest} ms (deadline ${DEADLINE_MS} ms)`);
      process.stdout.write(`# slowloris: ${ATTACKERS} dropped, longest ${longest} ms, run ${(result.total.bitsPerSecond! / 1e9).toFixed(2)} Gbit/s\n`);
    } finally {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await responder.close();
    }
  });
});
