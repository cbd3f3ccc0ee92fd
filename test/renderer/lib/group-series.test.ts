/** Group live series: a line per peer, the aggregate only once every peer reported an interval, bidir per side. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveSample } from '../../../electron/contract/api.js';
import { GroupIntervalSum } from '../../../electron/contract/group-live.js';
import { groupLines } from '../../../renderer/src/lib/chart-lines.js';
import { GroupSeries, viewSides } from '../../../renderer/src/lib/group-series.js';

function sample(peer: number, side: 'controller' | 'responder', index: number, t: number, streams: [number, number, number][], final = false): LiveSample {
  return { runId: 'g', side, index, t, final, streams, peer };
}

/** Dual receive, one stream per peer: the controller receives stream 0 from each. */
function dualReceive(peerCount = 2): GroupSeries {
  return new GroupSeries({ view: 'receiver', direction: 'reverse', senderOf: () => 'responder', peerCount });
}

describe('group live series', () => {
  it('draws each peer from its own samples and the aggregate once both peers reported the interval', () => {
    const g = dualReceive();
    g.add(sample(0, 'controller', 1, 1, [[0, 125_000, 1]]));
    assert.deepEqual(g.peers[0], [{ x: 1, y: 1e6 }]);
    assert.equal(g.aggregate.length, 0, 'peer 2 has not reported interval 1: the sum is unknown, not peer 1 alone');
    g.add(sample(1, 'controller', 1, 1.02, [[0, 250_000, 1]]));
    assert.deepEqual(g.peers[1], [{ x: 1.02, y: (250_000 * 8) / 1.02 }]);
    // 375,000 bytes over the span to the later peer's end of the interval.
    assert.deepEqual(g.aggregate, [{ x: 1.02, y: (375_000 * 8) / 1.02 }]);
    g.add(sample(1, 'controller', 2, 2.02, [[0, 500_000, 2]]));
    g.add(sample(0, 'controller', 2, 2, [[0, 250_000, 2]]));
    assert.equal(g.aggregate.length, 2);
    assert.equal(g.aggregate[1]!.x, 2.02);
    assert.ok(Math.abs(g.aggregate[1]!.y - 375_000 * 8) < 1e-6);
    assert.equal(g.totalBytes, 750_000);
    assert.equal(g.elapsedSeconds, 2.02);
    assert.ok(Math.abs(g.currentBitsPerSec! - 3e6) < 1e-6);
  });

  it('ignores the sending side and samples without a peer', () => {
    const g = dualReceive();
    g.add(sample(0, 'responder', 1, 1, [[0, 999_999, 1]]));
    g.add({ runId: 'g', side: 'controller', index: 1, t: 1, final: false, streams: [[0, 1, 1]] });
    assert.deepEqual(g.peers, [[], []]);
    assert.equal(g.totalBytes, 0);
  });

  it("in bidir, a peer's interval needs both sides (each receives one direction)", () => {
    const senderOf = (id: number): 'controller' | 'responder' => (id === 0 ? 'controller' : 'responder');
    const g = new GroupSeries({ view: 'receiver', direction: 'bidir', senderOf, peerCount: 1 });
    g.add(
      sample(0, 'responder', 1, 1, [
        [0, 100_000, 1],
        [1, 7, 1],
      ]),
    ); // responder received stream 0
    assert.equal(g.peers[0]!.length, 0, 'only one direction known yet');
    g.add(
      sample(0, 'controller', 1, 1.01, [
        [0, 7, 1],
        [1, 50_000, 1],
      ]),
    ); // controller received stream 1
    assert.deepEqual(g.peers[0], [{ x: 1.01, y: (150_000 * 8) / 1.01 }]);
    assert.deepEqual(viewSides('receiver', 'forward'), ['responder']);
    assert.deepEqual(viewSides('sender', 'forward'), ['controller']);
    assert.deepEqual(viewSides('receiver', 'reverse'), ['controller']);
  });

  it('counts a finished peer as 0 after its end, so the others still draw the aggregate', () => {
    const g = dualReceive();
    g.add(sample(0, 'controller', 1, 1, [[0, 100_000, 1]]));
    g.add(sample(0, 'controller', 2, 1.5, [[0, 150_000, 2]], true));
    g.add(sample(1, 'controller', 1, 1, [[0, 100_000, 1]]));
    g.add(sample(1, 'controller', 2, 2, [[0, 200_000, 2]]));
    g.add(sample(1, 'controller', 3, 3, [[0, 300_000, 3]]));
    assert.deepEqual(
      g.aggregate.map((p) => p.x),
      [1, 2, 3],
    );
    assert.ok(Math.abs(g.aggregate[2]!.y - 800_000) < 1e-6, 'interval 3 is peer 2 alone: peer 1 had ended');
  });

  it('a peer that goes silent (no final sample) holds the aggregate back: unknown is not zero', () => {
    const sum = new GroupIntervalSum(2);
    assert.deepEqual(sum.add(0, 1, 10, 1), []);
    assert.deepEqual(sum.add(1, 1, 20, 1.1), [{ index: 1, bytes: 30, t: 1.1, seconds: 1.1 }]);
    assert.deepEqual(sum.add(1, 2, 20, 2.1), []);
    assert.deepEqual(sum.add(1, 3, 20, 3.1), []);
    // Peer 1 ends after interval 1: intervals 2 and 3 are peer 2's alone.
    assert.deepEqual(
      sum.end(0).map((iv) => [iv.index, iv.bytes]),
      [
        [2, 20],
        [3, 20],
      ],
    );
    assert.deepEqual(sum.end(1), [], 'everyone has ended: nothing more to sum');
  });

  it('stays bounded and labels each line by its peer', () => {
    const g = new GroupSeries({ view: 'receiver', direction: 'reverse', senderOf: () => 'responder', peerCount: 3, maxPoints: 100 });
    for (let i = 1; i <= 1000; i++) for (const p of [0, 1, 2]) g.add(sample(p, 'controller', i, i / 10, [[0, i * 1000 * (p + 1), i]]));
    assert.ok(g.aggregate.length <= 100 && g.aggregate.length >= 50);
    for (const line of g.peers) assert.ok(line.length <= 100);
    for (const p of g.aggregate) assert.ok(Math.abs(p.y - 6000 * 8 * 10) < 1e-6, 'the merged aggregate keeps the mean rate');
    const set = groupLines(g, ['peer 1 (a:1)', 'peer 2 (b:1)', 'peer 3 (c:1)']);
    assert.deepEqual(
      set.lines.map((l) => l.label),
      ['all 3 peers', 'peer 1 (a:1)', 'peer 2 (b:1)', 'peer 3 (c:1)'],
    );
    assert.ok(
      set.lines.every((l) => l.axis === 'y'),
      "peers share the aggregate's axis: they add up to it",
    );
    assert.equal(set.partsTitle, null);
    assert.match(set.yTitle, /bit\/s/);
  });
});
