/**
 * A ThinnedSeries keeps the ticks up to `headIndex` as they came, the last `recent` as they came,
 * and between them groups of `ticks` ticks merged into one entry, group g covering ticks
 * (head + (g−1)·ticks, head + g·ticks]. Fed with each tick's own number and a summing merge, the
 * entries must add up to the whole run (nothing lost, nothing counted twice), come out in tick
 * order, and a doubled `ticks` must merge neighbouring groups on those same boundaries.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ThinnedSeries, type Grouping } from '../../../electron/engine/session/thinned-series.js';

/** Each entry is the list of ticks it holds: merging concatenates, so boundaries stay visible. */
const concat = (a: number[], b: number[]): number[] => [...a, ...b];

function fill(grouping: Grouping, lastTick: number): ThinnedSeries<number[]> {
  const s = new ThinnedSeries<number[]>(grouping, concat);
  for (let i = 1; i <= lastTick; i++) s.add(i, [i]);
  return s;
}

describe('ThinnedSeries', () => {
  it('keeps every tick as it came while the run is shorter than head + recent', () => {
    const s = fill({ headIndex: 4, ticks: 1, recent: 3 }, 6);
    assert.deepEqual(s.values(), [[1], [2], [3], [4], [5], [6]]);
    assert.equal(s.groupCount, 0);
    assert.equal(s.last?.[0], 6);
  });

  it('between head and recent, groups of `ticks` ticks on fixed boundaries; every tick once, in order', () => {
    const g: Grouping = { headIndex: 4, ticks: 1, recent: 3 };
    const s = fill(g, 20);
    g.ticks = 4; // the shared grouping coarsened: groups (4, 8], (8, 12], (12, 16], then (16, 17]
    const v = s.values();
    assert.deepEqual(v.slice(0, 4), [[1], [2], [3], [4]], 'the head as it came');
    assert.deepEqual(v.slice(-3), [[18], [19], [20]], 'the last `recent` ticks as they came');
    assert.deepEqual(v.slice(4, -3), [[5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16], [17]]);
    assert.deepEqual(
      v.flat(),
      Array.from({ length: 20 }, (_, i) => i + 1),
      'nothing lost or counted twice',
    );
    assert.equal(s.recentFromIndex, 18);
  });

  it('a second series on the same grouping is thinned on the same boundaries', () => {
    const g: Grouping = { headIndex: 2, ticks: 1, recent: 2 };
    const a = new ThinnedSeries<number[]>(g, concat);
    const b = new ThinnedSeries<number[]>(g, concat);
    for (let i = 1; i <= 15; i++) {
      a.add(i, [i]);
      if (i % 3 !== 0) b.add(i, [i]); // b skips some ticks (a stream end that missed readings)
      if (i === 8) g.ticks = 2;
    }
    g.ticks = 4;
    const aEntries = a.values();
    for (const e of b.values()) {
      assert.ok(
        aEntries.some((x) => e.every((t) => x.includes(t))),
        `b's entry [${e.join(',')}] lies inside one of a's entries`,
      );
    }
    assert.deepEqual(
      b.values().flat(),
      a
        .values()
        .flat()
        .filter((t) => t % 3 !== 0),
    );
  });

  it('dropLast removes the newest entry wherever it lives', () => {
    const s = fill({ headIndex: 2, ticks: 1, recent: 2 }, 2);
    s.dropLast();
    assert.deepEqual(s.values(), [[1]]);
    assert.equal(s.length, 1);
  });
});
