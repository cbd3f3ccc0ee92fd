import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStage, parseStageConfig } from '../../../electron/proxy/registry.js';
import { SlowstartStage } from '../../../electron/proxy/stages/slowstart.js';
import { within } from '../../helpers/net.js';
import { connect, patternBuffer, sendAll, startProxy, startSink } from '../helpers.js';
import { fakeContext } from './fake-context.js';

describe('slowstart stage', () => {
  it('starts at 10 × MSS, doubles per round trip of acks, halves on a loss, then grows by one MSS per round trip', () => {
    const s = createStage(parseStageConfig({ type: 'slowstart' }), fakeContext()) as SlowstartStage;
    assert.equal(s.capBytes(), 14_480);
    for (const expected of [28_960, 57_920, 115_840]) {
      const cwnd = s.cwndBytes;
      s.onAck(cwnd, { inFlightBytes: 0 }); // a full window acknowledged while it was all in flight
      assert.equal(s.capBytes(), expected);
    }
    s.onLoss();
    assert.equal(s.capBytes(), 57_920);
    s.onAck(57_920, { inFlightBytes: 0 });
    assert.equal(s.capBytes(), 57_920 + 1448);
  });

  it('does not grow while something else limits the sender', () => {
    const s = createStage(parseStageConfig({ type: 'slowstart' }), fakeContext()) as SlowstartStage;
    s.onAck(1000, { inFlightBytes: 2000 }); // only 3000 in flight: far below half the window
    assert.equal(s.capBytes(), 14_480);
  });

  it('ramps like the kernel through real sockets: 15 windows take about 4 round trips', { timeout: 20_000 }, async () => {
    const sink = await startSink();
    const { proxy, port } = await startProxy(sink.port, { delayMs: 100, rateBitsPerSec: null, windowBytes: null, slowstart: true, lossRatio: 0 });
    const s = await connect(port);
    try {
      const bytes = 14_480 * 15; // 1 + 2 + 4 + 8 initial windows
      await within(sendAll(s, patternBuffer(bytes)), 10_000, 'send');
      const r = await within(sink.next(), 10_000, 'receive');
      assert.equal(r.bytes, bytes);
      const last = r.arrivals[r.arrivals.length - 1]!.tMs;
      // Windows delivered at 100, 300, 500, 700 ms (one-way + n round trips); without slow start all at ~100 ms.
      assert.ok(last > 650 && last < 1000, `last byte after ${last.toFixed(0)} ms, expected ~700 ms`);
    } finally {
      s.destroy();
      await proxy.close();
      await sink.close();
    }
  });
});
