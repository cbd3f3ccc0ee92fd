import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseStageConfig, createStage } from '../../../electron/proxy/registry.js';
import { within } from '../../helpers/net.js';
import { connect, startEcho, startProxy } from '../helpers.js';
import { asQueue, fakeContext } from './fake-context.js';

describe('delay stage', () => {
  it('adds the delay to the ideal ready time, and jitter never makes a chunk overtake the one before', () => {
    const stage = asQueue(createStage(parseStageConfig({ type: 'delay', delayMs: 50, jitterMs: 40, seed: 7 }), fakeContext()));
    let last = -Infinity;
    let minExtra = Infinity;
    let maxExtra = -Infinity;
    for (let i = 0; i < 2000; i++) {
      const ready = i * 0.5; // chunks 0.5 ms apart, much closer than the jitter
      const at = stage.departAt(1448, ready);
      assert.ok(at >= last, `chunk ${i} leaves at ${at}, before the previous one (${last})`);
      assert.ok(at >= ready + 10 - 1e-9, 'never less than delay - jitter');
      minExtra = Math.min(minExtra, at - ready);
      maxExtra = Math.max(maxExtra, at - ready);
      last = at;
    }
    assert.ok(maxExtra - minExtra > 20, `jitter is applied (spread ${maxExtra - minExtra} ms)`);
  });

  it('a 120 ms each-way proxy makes an echo round trip take about 240 ms', { timeout: 15_000 }, async () => {
    const echo = await startEcho();
    const { proxy, port } = await startProxy(echo.port, { up: [{ type: 'delay', delayMs: 120 }], down: [{ type: 'delay', delayMs: 120 }] });
    const s = await connect(port);
    try {
      const rtts: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        s.write(`ping ${i}`);
        await within(new Promise((r) => s.once('data', r)), 5000, 'echo');
        rtts.push(performance.now() - t0);
      }
      for (const rtt of rtts) assert.ok(rtt >= 238 && rtt < 400, `round trip ${rtt.toFixed(1)} ms, expected 240 ms (+ scheduling)`);
    } finally {
      s.destroy();
      await proxy.close();
      await echo.close();
    }
  });
});
