import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStage, parseStageConfig } from '../../../electron/proxy/registry.js';
import type { LossStage } from '../../../electron/proxy/stages/loss.js';
import { within } from '../../helpers/net.js';
import { connect, patternBuffer, sendAll, sha256, startProxy, startSink } from '../helpers.js';
import { fakeContext } from './fake-context.js';

describe('loss stage (a modelled loss: late delivery + halving)', () => {
  it('holds a "lost" chunk one RTT at delivery (the link goes on), and halves the cap at most once per RTT', () => {
    const rolls = [0.9, 0.001, 0.9, 0.001, 0.001];
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
    assert.equal(stage.losses, 2);
    assert.equal(ctx.losses, 0, 'the sender does not know yet');
    stage.onAck(1448, { inFlightBytes: 100_000 }, 100);
    assert.equal(ctx.losses, 0, 'acks of what left before the loss say nothing');
    stage.onAck(1448, { inFlightBytes: 100_000 }, 101);
    assert.equal(ctx.losses, 1, 'one halving, an RTT after the first loss left, for two losses in one round trip');
    assert.equal(stage.capBytes(), Infinity, 'the pipe applies the halving (signalLoss → onLoss)');
    stage.onLoss({ inFlightBytes: 100_000 });
    assert.equal(stage.capBytes(), 50_000);
    stage.onAck(10_000, { inFlightBytes: 50_000 }, 200);
    assert.equal(stage.capBytes(), 50_000, 'no growth during fast recovery (one RTT after the detection)');
    stage.onAck(50_000, { inFlightBytes: 50_000 }, 201);
    assert.equal(stage.capBytes(), 50_000 + 1448, 'then one MSS per window acknowledged');
    assert.equal(stage.departAt(1448, 150), 150);
    assert.equal(stage.takeHoldMs(), 100, 'a loss 149 ms after the first: a new episode');
    stage.onAck(1448, { inFlightBytes: 50_000 }, 251);
    assert.equal(ctx.losses, 2, 'detected an RTT after it left');
  });

  it('draws each segment once, however the bytes are cut into chunks', () => {
    // A window-limited flow admits a full segment and a sliver of window growth per ack; a
    // draw per chunk made every sliver a whole segment (a 1 % link lost ~1.9 % of segments).
    let draws = 0;
    const ctx = fakeContext({
      rttMs: 100,
      random: () => {
        draws++;
        return 0.9;
      },
    });
    const stage = createStage(parseStageConfig({ type: 'loss', lossRatio: 0.01, mssBytes: 1000 }), ctx) as LossStage;
    const chunks = [1000, 100, 900, 50, 50, 3000, 1, 999, 1500, 500];
    let t = 0;
    for (const c of chunks) stage.departAt(c, t++);
    // 8,100 bytes = segments starting at 0, 1000, …, 8000: nine, in the chunks where they start.
    assert.equal(draws, 9 - 2, 'one draw per chunk in which segments start (the 3000-byte chunk starts three: one draw for them)');
    assert.equal(stage.losses, 0);
  });

  it('loses a segment with the ratio asked for, counted on the bytes', () => {
    const ctx = fakeContext({ rttMs: 100 });
    const stage = createStage(parseStageConfig({ type: 'loss', lossRatio: 0.01, seed: 7 }), ctx) as LossStage;
    const sizes = [1448, 120, 1448, 37, 2896, 60, 1448, 700, 748];
    let bytes = 0;
    for (let i = 0; i < 40_000; i++) {
      const b = sizes[i % sizes.length]!;
      stage.departAt(b, i);
      stage.takeHoldMs();
      bytes += b;
    }
    const segments = bytes / 1448;
    const expected = 0.01 * segments;
    assert.ok(
      Math.abs(stage.losses - expected) < 4 * Math.sqrt(expected),
      `${stage.losses} losses in ${segments.toFixed(0)} segments (expected ≈ ${expected.toFixed(0)})`,
    );
  });

  it('periodic: exactly every round(1 / ratio)-th segment, the same every run', () => {
    const run = (): number[] => {
      const stage = createStage(
        parseStageConfig({ type: 'loss', lossRatio: 0.01, pattern: 'periodic', mssBytes: 1000 }),
        fakeContext({ rttMs: 10 }),
      ) as LossStage;
      const held: number[] = [];
      for (let seg = 0; seg < 1000; seg++) {
        // Two chunks per segment: the loss falls in the chunk where the segment starts.
        stage.departAt(600, seg * 10);
        if (stage.takeHoldMs() > 0) held.push(seg);
        stage.departAt(400, seg * 10 + 5);
        assert.equal(stage.takeHoldMs(), 0, "the segment's second chunk is not drawn again");
      }
      return held;
    };
    const held = run();
    assert.deepEqual(
      held,
      Array.from({ length: 10 }, (_, k) => 99 + 100 * k),
      'segments 100, 200, … (1-based) are lost',
    );
    assert.deepEqual(run(), held, 'the same losses every run');
    assert.throws(() => parseStageConfig({ type: 'loss', lossRatio: 0.01, pattern: 'bursty' }), { code: 'LH_ERR_BAD_ARGUMENT' });
  });

  it('rejects a negative ratio', () => {
    assert.throws(() => parseStageConfig({ type: 'loss', lossRatio: -0.1 }), { code: 'LH_ERR_BAD_ARGUMENT', message: /negative/ });
  });

  it('through real sockets: losses cost time, never bytes', { timeout: 20_000 }, async () => {
    const sink = await startSink();
    const chain = (lossRatio: number): unknown => ({
      up: [
        { type: 'window', windowBytes: 65_536 },
        { type: 'loss', lossRatio, seed: 3 },
        { type: 'delay', delayMs: 25 },
      ],
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
