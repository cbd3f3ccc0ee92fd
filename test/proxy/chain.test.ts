/**
 * A chain is one direction's stages in order: a bounded FIFO in front of each queue stage, then a
 * wire-out queue; bytes enter the first queue. Its chunk size is the smallest any stage asks for
 * (64 KiB at most), its delay the sum of the stages' base delays, its in-flight cap the smallest of
 * its gates' caps, and a chain that replaces another takes over the running state of the stage of
 * the same type (a congestion window survives a reconfiguration). A StageQueue counts its bytes,
 * keeps order through shifts, and `expedite` makes everything due now without reordering it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Chain, DEFAULT_CHUNK_BYTES, StageQueue } from '../../electron/proxy/chain.js';
import { parseStageConfig } from '../../electron/proxy/registry.js';
import type { StageConfig } from '../../electron/proxy/stage.js';
import { SlowstartStage } from '../../electron/proxy/stages/slowstart.js';
import { fakeContext } from './stages/fake-context.js';

const configs = (...json: object[]): StageConfig[] => json.map((j) => parseStageConfig(j));
const flight = { inFlightBytes: 0 };

describe('chain', () => {
  it('queues in stage order, then wire-out; bytes enter the first', () => {
    const c = new Chain(configs({ type: 'rate', rateBitsPerSec: 8e6 }, { type: 'window', windowBytes: 50_000 }, { type: 'delay', delayMs: 40 }), fakeContext());
    assert.deepEqual(
      c.queues.map((q) => q.stage.type),
      ['rate', 'delay', 'wire-out'],
    );
    assert.equal(c.entry, c.queues[0]);
    assert.equal(c.wireOut, c.queues.at(-1));
    assert.equal(c.queues[0]?.limitBytes, 100_000, "rate's default queue: 100 ms of 8 Mbit/s");
  });

  it('without a queue stage, bytes enter the wire-out queue', () => {
    const c = new Chain(configs({ type: 'window', windowBytes: 50_000 }), fakeContext());
    assert.equal(c.entry, c.wireOut);
    assert.equal(c.chunkBytes, DEFAULT_CHUNK_BYTES);
  });

  it('chunk: the smallest a stage asks for; delay: the sum; cap: the smallest gate', () => {
    const c = new Chain(
      configs(
        { type: 'rate', rateBitsPerSec: 8e6 },
        { type: 'delay', delayMs: 30 },
        { type: 'delay', delayMs: 15 },
        { type: 'slowstart', initialSegments: 10, mssBytes: 1_000 },
        { type: 'window', windowBytes: 50_000 },
      ),
      fakeContext(),
    );
    assert.equal(c.chunkBytes, 2_000, '2 ms of 8 Mbit/s');
    assert.equal(c.delayMs, 45);
    assert.equal(c.capBytes(flight), 10_000, 'the slow-start window is below the fixed one');
    assert.equal(new Chain(configs({ type: 'delay', delayMs: 1 }), fakeContext()).capBytes(flight), Infinity, 'no gate: no cap');
  });

  it('a chain that replaces another keeps its congestion window; a new stage type starts fresh', () => {
    const ctx = fakeContext();
    const old = new Chain(configs({ type: 'slowstart', initialSegments: 10, mssBytes: 1_000 }), ctx);
    old.onAck(10_000, { inFlightBytes: 10_000 }, 0);
    const grown = (old.stages[0] as SlowstartStage).cwndBytes;
    assert.equal(grown, 20_000);
    const next = new Chain(configs({ type: 'slowstart', initialSegments: 10, mssBytes: 1_000 }, { type: 'delay', delayMs: 5 }), ctx, old);
    assert.equal((next.stages[0] as SlowstartStage).cwndBytes, grown);
    assert.equal(new Chain(next.configs, ctx).capBytes(flight), 10_000, 'without the previous chain: the initial window');
  });
});

describe('stage queue', () => {
  const stage = { type: 'test', departAt: (_b: number, t: number) => t };

  it('counts bytes, has room until the limit, and shifts in order', () => {
    const q = new StageQueue(stage, 3_000);
    q.push(1_000, 5);
    q.push(2_000, 6);
    assert.deepEqual([q.length, q.bytes, q.hasRoom], [2, 3_000, false]);
    assert.equal(q.shift().dueMs, 5);
    assert.deepEqual([q.length, q.bytes, q.hasRoom], [1, 2_000, true]);
    assert.equal(q.peek()?.bytes, 2_000);
    q.shift();
    assert.throws(() => q.shift(), /empty queue/);
  });

  it('stays in order across compaction of a long queue', () => {
    const q = new StageQueue(stage, Infinity);
    for (let i = 0; i < 3_000; i++) q.push(1, i);
    for (let i = 0; i < 2_000; i++) assert.equal(q.shift().dueMs, i);
    assert.deepEqual([q.length, q.peek()?.dueMs, q.at(999)?.dueMs, q.at(1_000)], [1_000, 2_000, 2_999, undefined]);
  });

  it('expedite makes every chunk due by now, drops holds, and keeps the order', () => {
    const q = new StageQueue(stage, Infinity);
    q.push(1, 100, 30);
    q.push(1, 5);
    q.push(1, 200);
    q.expedite(50);
    const out = [q.shift(), q.shift(), q.shift()];
    assert.deepEqual(
      out.map((x) => [x.dueMs, x.holdMs]),
      [
        [50, 0],
        [5, 0],
        [50, 0],
      ],
    );
  });
});
