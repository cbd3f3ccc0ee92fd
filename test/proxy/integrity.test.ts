import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseLinkSpec } from '../../electron/proxy/link-settings.js';
import { within } from '../helpers/net.js';
import { connect, patternBuffer, RELAYS, sendAll, sha256, startProxy, startSink } from './helpers.js';

/** Configurations cycled every 25 ms: every stage, different orders, bypass in between. */
const CONFIGS = [
  {
    up: [
      { type: 'rate', rateBitsPerSec: 2e9 },
      { type: 'delay', delayMs: 3, jitterMs: 2 },
    ],
    down: [],
  },
  {
    up: [
      { type: 'window', windowBytes: 1_048_576 },
      { type: 'delay', delayMs: 1 },
    ],
    down: [{ type: 'delay', delayMs: 1 }],
  },
  { up: [], down: [] },
  { up: [{ type: 'slowstart' }, { type: 'loss', lossRatio: 0.0005 }, { type: 'delay', delayMs: 2 }], down: [{ type: 'delay', delayMs: 2 }] },
  {
    up: [
      { type: 'delay', delayMs: 5, jitterMs: 5 },
      { type: 'rate', rateBitsPerSec: 3e9, queueBytes: 65_536 },
    ],
    down: [],
  },
].map(parseLinkSpec);

describe('proxy integrity', () => {
  for (const { name, relay, skip } of RELAYS) {
    it(`${name}: a 50 MB stream through a proxy reconfigured every 25 ms arrives byte for byte (SHA-256)`, { timeout: 60_000, skip }, async () => {
      const sink = await startSink();
      const { proxy, port } = await startProxy(sink.port, { up: [], down: [] }, relay);
      const block = patternBuffer(1024 * 1024, 42);
      const rounds = 50;
      let changes = 0;
      // Every 25 ms: an unlimited link keeps the OS's socket buffers on the relay, and 50 MB then
      // crosses loopback in a few tenths of a second.
      const timer = setInterval(() => {
        changes++;
        if (changes % 7 === 0) proxy.setBypass(!proxy.bypass);
        else proxy.configure(CONFIGS[changes % CONFIGS.length]!);
      }, 25);
      const s = await connect(port);
      try {
        const t0 = performance.now();
        await within(sendAll(s, block, rounds), 40_000, 'sending 50 MB');
        const r = await within(sink.next(), 40_000, 'receiving 50 MB');
        const seconds = (performance.now() - t0) / 1000;
        assert.equal(r.bytes, block.length * rounds);
        assert.equal(r.sha256, sha256(block, rounds));
        assert.ok(changes >= 5, `the link changed ${changes} times during the ${seconds.toFixed(1)} s transfer`);
      } finally {
        clearInterval(timer);
        s.destroy();
        await proxy.close();
        await sink.close();
      }
    });
  }
});
