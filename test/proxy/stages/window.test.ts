import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelCeilingBitsPerSec } from '../../../electron/proxy/link-settings.js';
import { within } from '../../helpers/net.js';
import { arrivalRate, connect, patternBuffer, sendAll, startProxy, startSink } from '../helpers.js';

describe('window stage', () => {
  it('the model: 64 KiB over a 1.3 s round trip is about 403 kbit/s', () => {
    const ceiling = modelCeilingBitsPerSec({ delayMs: 650, rateBitsPerSec: 4e6, windowBytes: 65_536 })!;
    assert.ok(Math.abs(ceiling - 403_298) < 1, `${ceiling}`);
  });

  it('caps a stream at window / RTT through real sockets (32 KiB, 100 ms RTT → 2.62 Mbit/s)', { timeout: 20_000 }, async () => {
    const sink = await startSink();
    const { proxy, port } = await startProxy(sink.port, { delayMs: 50, rateBitsPerSec: null, windowBytes: 32_768, slowstart: false, lossRatio: 0 });
    const s = await connect(port);
    try {
      await within(sendAll(s, patternBuffer(600_000)), 10_000, 'send');
      const r = await within(sink.next(), 10_000, 'receive');
      const rate = arrivalRate(r.arrivals);
      const model = (32_768 * 8) / 0.1;
      assert.ok(rate > model * 0.85 && rate < model * 1.15, `${(rate / 1e6).toFixed(3)} Mbit/s, model ${(model / 1e6).toFixed(3)}`);
      // The cap shows as bursts one RTT apart: nothing arrives in the middle of a cycle.
      const gaps = r.arrivals.slice(1).map((a, i) => a.tMs - r.arrivals[i]!.tMs);
      // Generous under CPU load (18 cycles expected): a stream without the cap shows no such gaps at all.
      assert.ok(gaps.filter((g) => g > 60).length >= 8, `about one window per round trip: ${gaps.filter((g) => g > 60).length} gaps over 60 ms`);
    } finally {
      s.destroy();
      await proxy.close();
      await sink.close();
    }
  });
});
