/** Live series: per-interval rates from cumulative counters, bounded in points and streams. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveSample } from '../../../electron/contract/api.js';
import { LiveSeries, push, type Point } from '../../../renderer/src/lib/live-series.js';
import { streamLines } from '../../../renderer/src/lib/chart-lines.js';

function sample(side: 'controller' | 'responder', index: number, t: number, streams: [number, number, number][], final = false): LiveSample {
  return { runId: 'r', side, index, t, final, streams };
}

describe('live series', () => {
  it("starts a side's first interval at its first byte when that came before the side's clock (a start handled late)", () => {
    const s = new LiveSeries({ view: 'receiver', senderOf: () => 'controller' });
    // 0.25 s after its clock started, but its first byte came 0.25 s before it: 500 kB in 0.5 s, not in 0.25 s.
    s.add({ ...sample('responder', 1, 0.25, [[0, 500_000, 10]]), from: -0.25 });
    s.add(sample('responder', 2, 0.5, [[0, 750_000, 15]]));
    assert.deepEqual(s.aggregate, [
      { x: 0.25, y: 8e6 },
      { x: 0.5, y: 8e6 },
    ]);
    assert.deepEqual(s.perStream.get(0), s.aggregate);
  });

  it('computes receiver-view rates per stream and in aggregate, ignoring the sender side', () => {
    const s = new LiveSeries({ view: 'receiver', senderOf: () => 'controller' });
    s.add(
      sample('controller', 1, 1, [
        [0, 999_999, 1],
        [1, 999_999, 1],
      ]),
    ); // sender's counters: not this view
    s.add(
      sample('responder', 1, 1, [
        [0, 125_000, 10],
        [1, 250_000, 20],
      ]),
    );
    s.add(
      sample('responder', 2, 2, [
        [0, 250_000, 20],
        [1, 500_000, 40],
      ]),
    );
    assert.deepEqual(s.aggregate, [
      { x: 1, y: 3e6 },
      { x: 2, y: 3e6 },
    ]);
    assert.deepEqual(s.perStream.get(1), [
      { x: 1, y: 2e6 },
      { x: 2, y: 2e6 },
    ]);
    assert.equal(s.totalBytes, 750_000);
    assert.equal(s.averageBitsPerSec, 3e6);
    assert.equal(s.currentBitsPerSec, 3e6);
  });

  it('uses the sender side in the sender view, per direction in bidir', () => {
    const senderOf = (id: number): 'controller' | 'responder' => (id < 1 ? 'controller' : 'responder');
    const s = new LiveSeries({ view: 'sender', senderOf });
    s.add(
      sample('controller', 1, 0.5, [
        [0, 1000, 1],
        [1, 7, 1],
      ]),
    );
    s.add(
      sample('responder', 1, 0.5, [
        [0, 9, 1],
        [1, 2000, 1],
      ]),
    );
    assert.deepEqual([...s.perStream.keys()].sort(), [0, 1]);
    assert.equal(s.perStream.get(0)![0]!.y, 16_000);
    assert.equal(s.perStream.get(1)![0]!.y, 32_000);
  });

  it('bidir, receiver view: the aggregate is both directions together, one point per tick', () => {
    // Stream 0: controller → responder at 1 Mbit/s; stream 1: responder → controller at 2 Mbit/s.
    const senderOf = (id: number): 'controller' | 'responder' => (id === 0 ? 'controller' : 'responder');
    const s = new LiveSeries({ view: 'receiver', senderOf });
    for (let i = 1; i <= 4; i++) {
      s.add(sample('controller', i, i, [[1, 250_000 * i, i]])); // what the controller received (stream 1)
      s.add(sample('responder', i, i + 0.01, [[0, 125_000 * i, i]])); // what the responder received (stream 0)
    }
    // One point per tick: the responder's half of each tick updates the point the controller's half added
    // (its first interval is 1.01 s long on its own clock: 0.99 Mbit/s, so the first point is 2.99 Mbit/s).
    assert.deepEqual(
      s.aggregate.map((p) => p.x),
      [1.01, 2.01, 3.01, 4.01],
    );
    for (const p of s.aggregate) assert.ok(Math.abs(p.y / 3e6 - 1) < 0.01, JSON.stringify(s.aggregate));
    assert.equal(s.totalBytes, 4 * 375_000);
    assert.equal(s.currentBitsPerSec, 3e6);
    assert.ok(Math.abs(s.averageBitsPerSec! - (4 * 375_000 * 8) / 4.01) < 1);
  });

  it('does not plot the sliver of a final sample', () => {
    const s = new LiveSeries({ view: 'receiver', senderOf: () => 'controller' });
    s.add(sample('responder', 1, 1, [[0, 1000, 1]]));
    s.add(sample('responder', 2, 1.01, [[0, 1100, 2]], true));
    assert.equal(s.aggregate.length, 1);
    assert.equal(s.totalBytes, 1100);
  });

  it('stays bounded with 128 streams at 10 samples/s for 10 minutes', () => {
    const s = new LiveSeries({ view: 'receiver', senderOf: () => 'controller', maxPoints: 600, maxStreams: 8 });
    const bytes = new Array<number>(128).fill(0);
    const t0 = performance.now();
    for (let i = 1; i <= 6000; i++) {
      for (let id = 0; id < 128; id++) bytes[id]! += 1000 * (id + 1);
      s.add(
        sample(
          'responder',
          i,
          i / 10,
          bytes.map((b, id) => [id, b, i] as [number, number, number]),
        ),
      );
    }
    const ms = performance.now() - t0;
    assert.ok(s.aggregate.length <= 600 && s.aggregate.length >= 300, `${s.aggregate.length} points`);
    for (const p of s.perStream.values()) assert.ok(p.length <= 600);
    assert.deepEqual(s.shownStreams(), [120, 121, 122, 123, 124, 125, 126, 127]);
    assert.equal(s.aggregate.at(-1)!.x, 600);
    // The mean rate survives the merging: every interval carried the same rate.
    const want = ((1000 * 128 * 129) / 2) * 8 * 10;
    for (const p of s.aggregate) assert.ok(Math.abs(p.y - want) / want < 1e-9);
    assert.ok(ms < 10_000, `6000 samples × 128 streams took ${ms.toFixed(0)} ms`);
  });

  it('push merges neighbours by time weight when full', () => {
    const pts: Point[] = [];
    push(pts, { x: 1, y: 10 }, 3);
    push(pts, { x: 3, y: 40 }, 3);
    push(pts, { x: 4, y: 5 }, 3);
    push(pts, { x: 5, y: 7 }, 3);
    assert.deepEqual(pts, [
      { x: 3, y: 30 },
      { x: 5, y: 6 },
    ]);
  });

  it('a UDP run: the datagrams lost per interval, % of those numbered in it, both directions of --bidir together, in either view', () => {
    for (const view of ['receiver', 'sender'] as const) {
      const s = new LiveSeries({ view, senderOf: (id) => (id === 0 ? 'controller' : 'responder') });
      const udp = (side: 'controller' | 'responder', index: number, t: number, counts: [number, number, number][]): LiveSample => ({
        ...sample(
          side,
          index,
          t,
          counts.map(([id, d]) => [id, d * 1000, d]),
        ),
        udp: counts,
      });
      // Stream 0 (controller → responder) arrives at the responder, stream 1 at the controller.
      s.add(udp('responder', 1, 1, [[0, 90, 10]]));
      assert.deepEqual(s.lossPercent, [{ x: 1, y: 10 }]);
      s.add(udp('controller', 1, 1, [[1, 100, 0]])); // the same tick from the other side: one point, both directions
      assert.deepEqual(s.lossPercent, [{ x: 1, y: 5 }]);
      s.add(udp('responder', 2, 2, [[0, 180, 30]])); // 90 arrived, 20 lost this interval; stream 1's last interval: 100, 0
      assert.deepEqual(s.lossPercent.at(-1), { x: 2, y: (20 / 210) * 100 });
      const lines = streamLines(s);
      assert.deepEqual(
        lines.lines.map((l) => l.label),
        ['all streams', 'datagrams lost (%)'],
      );
      assert.equal(lines.partsUnit, 'percent');
    }
  });
});
