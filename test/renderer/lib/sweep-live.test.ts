/** A sweep on screen follows its progress events: rows fill in, the run in flight is known, the end says why. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarizeCells } from '../../../electron/contract/sweep-plan.js';
import { applyProgress, liveSweep, resumable, runsDone } from '../../../renderer/src/lib/sweep-live.js';
import { headlineOf, makePlan, makeView } from '../../helpers/sweep-fixtures.js';

describe('sweep live', () => {
  it("fills the table in run by run from the runner's cell summaries", () => {
    const plan = makePlan();
    let s = liveSweep(makeView(plan, [], true));
    assert.equal(s.activity.kind, 'starting');
    s = applyProgress(s, { kind: 'run-start', cell: 2, repeat: 0, settings: s.view.cells[2]!.settings, position: 1, total: 8 }, 1000);
    assert.deepEqual(s.activity, { kind: 'running', cell: 2, repeat: 0, settings: s.view.cells[2]!.settings, position: 1, total: 8, sinceMs: 1000 });
    const run = headlineOf(plan, 2, 0, 123e6);
    const before = s.view;
    s = applyProgress(s, { kind: 'run-done', run, cellSummary: summarizeCells(plan, [run])[2]!, position: 1, total: 8 }, 2000);
    assert.notEqual(s.view, before, 'a new object, so a raw $state redraws');
    assert.equal(s.view.runs.length, 1);
    assert.equal(s.view.cells[2]!.bitsPerSecond?.median, 123e6);
    assert.equal(s.view.cells[0]!.runs, 0);
    assert.deepEqual(runsDone(s.view), { done: 1, planned: 8 });
    s = applyProgress(s, { kind: 'paused', seconds: 0.5 }, 2100);
    assert.equal(s.activity.kind, 'paused');
  });

  it('ends stopped (resumable) or done', () => {
    const plan = makePlan();
    const running = liveSweep(makeView(plan, [], true));
    assert.equal(resumable(running.view), false, 'not while it runs');
    const stopped = applyProgress(
      running,
      { kind: 'stopped', file: 'f', runs: 1, reason: 'partner-gone', error: { code: 'LH_ERR_PEER_GONE', message: 'gone' } },
      0,
    );
    assert.deepEqual(stopped.activity, { kind: 'stopped', reason: 'partner-gone', error: 'gone (LH_ERR_PEER_GONE)' });
    assert.equal(resumable(stopped.view), true);
    const done = applyProgress(running, { kind: 'done', file: 'f', runs: 8, complete: true }, 0);
    assert.equal(done.view.complete, true);
    assert.equal(resumable(done.view), false);
  });
});
