import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStage, parseStageConfig } from '../../../electron/proxy/registry.js';
import type { LossStage } from '../../../electron/proxy/stages/loss.js';
import { within } from '../../helpers/net.js';
import { connect, patternBuffer, sendAll, sha256, startProxy, startSink } from '../helpers.js';
import { fakeContext } from './fake-context.js';

describe('loss stage (a modelled loss: late delivery + halving)', () => {
  it('holds a "lost" chunk one RTT at delivery (the link goes on), and halves the cap at most once per RTT', () => {
    const rolls = [0.9, 0.001, 0.9, 0.001, 0.9];
    const ctx = fakeContext({ rttMs: 100, random: () => rolls.shift() ?? 0.9 });
    const stage = createStage(parseStageConfig({ type: 'loss', lossRatio: 0.01 }), ctx) as LossStage;
    assert.equal(stage.departAt(1448, 0), 0, 'not lost');
    assert.equal(stage.takeHoldMs(), 0);
    assert.equal(stage.departAt(1448, 1), 1, 'lost: it still crosses the link on time…');
    assert.equal(stage.takeHoldMs(), 100, '…and is held one RTT at delivery (the retransmission)');
    assert.equal(stage.takeHoldMs(), 0, 'a hold is taken once');
    assert.equal(stage.departAt(1448, 2), 2, 'the chunk behind it is not held here (the pipe keeps order at delivery)');
    assert.equal(stage.takeHoldMs(), 0);
    assert.equal(stage.departAt(1448, 50), 50, 'lost again, within the same RTT');
    assert.equal(stage.takeHoldMs(), 100);
    assert.equal(ctx.losses, 1, 'one halving for two losses in one round trip');
    assert.equal(stage.losses, 2);
    assert.equal(stage.capBytes(), Infinity);
    stage.onLoss({ inFlightBytes: 100_000 });
    assert.equal(stage.capBytes(), 50_000);
  });

  it('rejects a negative ratio', () => {
    assert.throws(() => parseStageConfig({ type: 'loss', lossRatio: -0.1 }), { code: 'LH_ERR_BAD_ARGUMENT', message: /negative/ });
  });

  it('through real sockets: losses cost time, never bytes', { timeout: 20_000 }, async () => {
    const sink = await startSink();
    const chain = (lossRatio: number): unknown => ({
      up: [{ type: 'window', windowBytes: 65_536 }, { type: 'loss', lossRatio, seed: 3 }, { type: 'delay', delayMs: 25 }],
      down: [{ type: 'delay', delayMs: 25 }],
    });
    const data = patternBuffer(1_000_000);
    const seconds: number[] = [];
    for (const ratio of [0, 0.02]) {
      const { proxy, port } = await startProxy(sink.port, chain(ratio));
      const s = await connect(port);
      try {
        const t0 = performance.now();
        await within(sendAll(s, data), 10_000, 'send');
        const r = await within(sink.next(), 10_000, 'receive');
        seconds.push((performance.now() - t0) / 1000);
        assert.equal(r.sha256, sha256(data), 'every byte, in order');
      } finally {
        s.destroy();
        await proxy.close();
      }
    }
    await sink.close();
    assert.ok(seconds[1]! > seconds[0]! * 1.5, `2 % modelled loss: ${seconds[1]!.toFixed(2)} s vs ${seconds[0]!.toFixed(2)} s without`);
  });
});
