/** The pure plan rules: expansion, the seeded order, durations, medians, what a resume still owes, cell summaries. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expandPlan, median, pendingRuns, planDuration, runKey, runOrder, summarizeCells } from '../../electron/contract/sweep-plan.js';
import { plan, run } from './fixtures.js';

describe('sweep plan', () => {
  it('expands dimensions mixed-radix, the last fastest, each cell with its settings', () => {
    const cells = expandPlan(plan());
    assert.equal(cells.length, 6);
    assert.deepEqual(
      cells.map((c) => [c.settings.params.windowBytes, c.settings.params.bufferBytes]),
      [
        [65536, 4096],
        [65536, 131072],
        [65536, 8192],
        [null, 4096],
        [null, 131072],
        [null, 8192],
      ],
    );
    assert.deepEqual(Object.keys(cells[0]!.values), ['windowBytes', 'bufferBytes']);
    const p = plan({
      dimensions: [
        { name: 'path', values: ['direct', 'relay'] },
        { name: 'link', values: [null, 'lan'] },
        { name: 'mssBytes', values: [null, 536] },
      ],
    });
    const c = expandPlan(p)[7]!;
    assert.deepEqual([c.settings.path, c.settings.link, c.settings.params.mssBytes], ['relay', 'lan', 536]);
    assert.equal(expandPlan(plan({ dimensions: [] })).length, 1);
  });

  it('shuffled: every (cell, repeat) exactly once, each round every cell once, reproducible from the seed', () => {
    const p = plan({ repeat: 4 });
    const order = runOrder(p);
    assert.equal(order.length, 24);
    assert.equal(new Set(order.map(runKey)).size, 24);
    for (let r = 0; r < 4; r++) {
      const round = order.slice(r * 6, r * 6 + 6);
      assert.ok(round.every((k) => k.repeat === r));
      assert.deepEqual(round.map((k) => k.cell).sort(), [0, 1, 2, 3, 4, 5]);
    }
    assert.deepEqual(runOrder(p), order, 'same seed, same order');
    assert.notDeepEqual(runOrder(plan({ repeat: 4, seed: 43 })), order, 'another seed, another order');
    const rounds = [0, 1, 2, 3].map((r) =>
      order
        .slice(r * 6, r * 6 + 6)
        .map((k) => k.cell)
        .join(),
    );
    assert.ok(new Set(rounds).size > 1, 'a fresh order each round');
  });

  it('sequential: cell by cell, repeats back to back', () => {
    assert.deepEqual(runOrder(plan({ order: 'sequential', dimensions: [{ name: 'streams', values: [1, 2] }] })).map(runKey), ['0:0', '0:1', '1:0', '1:1']);
  });

  it('duration: runs × seconds + pauses between them; unknown for byte-bounded runs', () => {
    const d = planDuration(plan());
    assert.deepEqual([d.cells, d.repeat, d.runs, d.totalSeconds], [6, 2, 12, 12 * 1 + 11 * 0.5]);
    assert.equal(planDuration(plan(), 3).totalSeconds, 3 + 2 * 0.5);
    assert.equal(planDuration(plan({ base: { ...plan().base, seconds: null, bytes: 1e6 } })).totalSeconds, null);
  });

  it('median of odd and even counts, unsorted input', () => {
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.ok(Number.isNaN(median([])));
  });

  it('resume owes every (cell, repeat) without a done run: missing, failed and partial ones, in plan order', () => {
    const p = plan();
    const order = runOrder(p);
    const runs = [run(p, order[0]!.cell, 0, 'done', 1), run(p, order[1]!.cell, 0, 'failed', null), run(p, order[2]!.cell, 0, 'partial', 5)];
    const owed = pendingRuns(p, runs);
    assert.equal(owed.length, 11);
    assert.deepEqual(owed, order.slice(1));
    assert.equal(
      pendingRuns(
        p,
        order.map((k) => run(p, k.cell, k.repeat, 'done', 1)),
      ).length,
      0,
    );
  });

  it('cell summaries count done runs only: median, min, max, verdicts', () => {
    const p = plan();
    const runs = [run(p, 1, 0, 'done', 100), run(p, 1, 1, 'done', 300), run(p, 1, 1, 'partial', 1), run(p, 2, 0, 'failed', null)];
    const cells = summarizeCells(p, runs);
    assert.deepEqual(cells[1]!.bitsPerSecond, { median: 200, min: 100, max: 300 });
    assert.deepEqual(cells[1]!.streamSumBitsPerSecond, { median: 201, min: 101, max: 301 });
    assert.deepEqual([cells[1]!.runs, cells[1]!.planned], [2, 2]);
    assert.deepEqual(cells[1]!.verdicts, { 'window-limited': 2 });
    assert.equal(cells[2]!.bitsPerSecond, null);
    assert.equal(cells[2]!.runs, 0);
  });
});
