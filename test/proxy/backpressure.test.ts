import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProxyConnection } from '../../electron/proxy/proxy-connection.js';
import { within } from '../helpers/net.js';
import { connect, startProxy, startSink } from './helpers.js';

describe('proxy backpressure', () => {
  it('a sender far faster than the link is paused: the proxy holds a bounded number of bytes', { timeout: 15_000 }, async () => {
    const sink = await startSink();
    const { proxy, port } = await startProxy(sink.port, {
      up: [
        { type: 'rate', rateBitsPerSec: 2e6 },
        { type: 'delay', delayMs: 20 },
      ],
      down: [],
    });
    const conn = within(new Promise<ProxyConnection>((r) => proxy.once('connection', r)), 5000, 'connection');
    const s = await connect(port);
    const payload = Buffer.alloc(64 * 1024);
    let written = 0;
    const pump = (): void => {
      while (!s.destroyed && s.write(payload)) written += payload.length;
    };
    s.on('drain', pump);
    s.on('error', () => undefined);
    pump();
    try {
      const c = await conn;
      let maxHeld = 0;
      for (let i = 0; i < 15; i++) {
        await new Promise((r) => setTimeout(r, 100));
        maxHeld = Math.max(maxHeld, c.up.bytesIn - c.up.bytesOut);
      }
      // Inbox 256 KiB + rate queue 64 KiB + 20 ms of 2 Mbit/s in the delay + one read: well under 1 MiB.
      assert.ok(maxHeld < 1024 * 1024, `the proxy held up to ${maxHeld} bytes`);
      assert.ok(c.up.bytesOut < (2e6 / 8) * 1.5 * 1.2, `${c.up.bytesOut} bytes went out in 1.5 s at 2 Mbit/s`);
      assert.ok(written > 1024 * 1024, 'the sender had far more to give (its kernel buffers took it)');
    } finally {
      s.destroy();
      await proxy.close();
      await sink.close();
    }
  });
});
