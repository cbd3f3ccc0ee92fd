import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStage, parseStageConfig } from '../../../electron/proxy/registry.js';
import { within } from '../../helpers/net.js';
import { arrivalRate, connect, patternBuffer, sendAll, startProxy, startSink } from '../helpers.js';
import { asQueue, fakeContext } from './fake-context.js';

describe('rate stage', () => {
  it('serializes back to back at the rate, and a later chunk starts no earlier than it is ready', () => {
    const stage = asQueue(createStage(parseStageConfig({ type: 'rate', rateBitsPerSec: 8e6, wireOverheadBytes: 0 }), fakeContext()));
    // 1000 bytes at 8 Mbit/s = 1 ms each.
    assert.equal(stage.departAt(1000, 0), 1);
    assert.equal(stage.departAt(1000, 0), 2);
    assert.equal(stage.departAt(1000, 10), 11);
    assert.equal(stage.queueLimitBytes, 100_000, '100 ms of the rate');
  });

  it('counts the wire: 66 header bytes per 1448-byte segment by default, as tbf and a real link do', () => {
    const stage = asQueue(createStage(parseStageConfig({ type: 'rate', rateBitsPerSec: 8e6 }), fakeContext()));
    // 1448 payload bytes are 1514 bytes on the wire: 1.514 ms at 8 Mbit/s.
    assert.ok(Math.abs(stage.departAt(1448, 0) - 1.514) < 1e-9);
    assert.ok(Math.abs(stage.departAt(14_480, 0) - 16.654) < 1e-9, 'ten more segments, back to back');
  });

  it('rejects a rate of 0', () => {
    assert.throws(() => parseStageConfig({ type: 'rate', rateBitsPerSec: 0 }), { code: 'LH_ERR_BAD_ARGUMENT', message: /above 0/ });
  });

  it('holds 8 Mbit/s through real sockets, shared by two connections', { timeout: 20_000 }, async () => {
    const sink = await startSink();
    const { proxy, port } = await startProxy(sink.port, { up: [{ type: 'rate', rateBitsPerSec: 8e6 }], down: [] });
    const data = patternBuffer(600_000);
    const a = await connect(port);
    const b = await connect(port);
    try {
      const t0 = performance.now();
      await within(Promise.all([sendAll(a, data), sendAll(b, data)]), 10_000, 'send');
      const [ra, rb] = await within(Promise.all([sink.next(), sink.next()]), 10_000, 'receive');
      const seconds = (performance.now() - t0) / 1000;
      const together = ((ra.bytes + rb.bytes) * 8) / seconds;
      assert.equal(ra.bytes + rb.bytes, 1_200_000);
      assert.ok(together > 8e6 * 0.8 && together < 8e6 * 1.1, `together ${(together / 1e6).toFixed(2)} Mbit/s, expected 8 (shared, not 16)`);
      const single = arrivalRate(ra.arrivals);
      assert.ok(single < 8e6 * 0.75, `one connection got ${(single / 1e6).toFixed(2)} Mbit/s while sharing`);
    } finally {
      a.destroy();
      b.destroy();
      await proxy.close();
      await sink.close();
    }
  });
});
