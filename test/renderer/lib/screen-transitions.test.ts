/** The renderer's screen changes: each named transition leaves nothing of the screen before it behind. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulGroupResult } from '../../../electron/contract/group.js';
import type { LonghaulResult } from '../../../electron/contract/result.js';
import type { RampView } from '../../../electron/contract/udp-ramp-app.js';
import { screenTransitions, type ScreenFields } from '../../../renderer/src/lib/screen-transitions.js';
import type { StartFailure } from '../../../renderer/src/lib/start-failure.js';
import type { LiveSweep } from '../../../renderer/src/lib/sweep-live.js';

type Run = { runId: string };

/** Only the fields the transitions read; the rest of a result does not matter here. */
const result = (id: string, meters?: number): LonghaulResult =>
  ({ id, ...(meters !== undefined ? { distance: { meters } } : {}) }) as unknown as LonghaulResult;
const group = (id: string): LonghaulGroupResult => ({ id }) as unknown as LonghaulGroupResult;
const failure: StartFailure = { step: 'pair', code: 'LH_ERR_PEER_GONE', text: 'gone', fix: 'check it', detail: '', partner: 'b' };

/** A state that has been everywhere: a run, a result, a group, a failure, an announcement. */
function busy(): ScreenFields<Run> {
  return {
    screen: 'results',
    run: { runId: 'old' },
    result: result('old-result'),
    group: group('old-group'),
    resultSavedPath: '/old.json',
    distanceMeters: 5,
    startFailure: failure,
    announcement: 'Finished: 1 Gbit/s',
    sweep: null,
    ramp: null,
  };
}

describe('screen transitions', () => {
  it('beginRun: the Run screen shows the new run, with no result, group, failure or announcement of the last one', () => {
    const s = busy();
    screenTransitions(s).beginRun({ runId: 'new' }, 1000);
    assert.equal(s.screen, 'run');
    assert.deepEqual(s.run, { runId: 'new' });
    assert.equal(s.result, null);
    assert.equal(s.group, null);
    assert.equal(s.startFailure, null);
    assert.equal(s.announcement, '');
    assert.equal(s.distanceMeters, 1000);
  });

  it('failStart: back to the step that can fix it, the run gone, the reason kept', () => {
    const s = busy();
    screenTransitions(s).failStart({ ...failure, step: 'link' });
    assert.equal(s.screen, 'link');
    assert.equal(s.run, null);
    assert.equal(s.startFailure?.step, 'link');
    assert.equal(s.announcement, '');
  });

  it('showResult after a live run: the result, never a stale group; the run stays for its notices', () => {
    const s = busy();
    screenTransitions(s).showResult(result('r1'), '/r1.json');
    assert.equal(s.screen, 'results');
    assert.equal(s.result?.id, 'r1');
    assert.equal(s.group, null);
    assert.equal(s.resultSavedPath, '/r1.json');
    assert.deepEqual(s.run, { runId: 'old' });
  });

  it('showGroup after a live group run: the group, never a stale single result', () => {
    const s = busy();
    screenTransitions(s).showGroup(group('g1'), null);
    assert.equal(s.screen, 'results');
    assert.equal(s.group?.id, 'g1');
    assert.equal(s.result, null);
    assert.equal(s.resultSavedPath, null);
  });

  it('openStoredResult: no live run or saved path of another; the distance comes from the result (null when absent)', () => {
    const s = busy();
    const t = screenTransitions(s);
    t.openStoredResult(result('stored', 42_000));
    assert.equal(s.screen, 'results');
    assert.equal(s.result?.id, 'stored');
    assert.equal(s.group, null);
    assert.equal(s.run, null);
    assert.equal(s.resultSavedPath, null);
    assert.equal(s.distanceMeters, 42_000);
    t.openStoredResult(result('older'));
    assert.equal(s.distanceMeters, null);
  });

  it('openStoredGroup: the group alone, with no run, result, path or distance of another', () => {
    const s = busy();
    screenTransitions(s).openStoredGroup(group('stored-group'));
    assert.equal(s.screen, 'results');
    assert.equal(s.group?.id, 'stored-group');
    assert.equal(s.result, null);
    assert.equal(s.run, null);
    assert.equal(s.resultSavedPath, null);
    assert.equal(s.distanceMeters, null);
  });

  it('showSweep: the sweep on the Sweep screen; goTo changes the screen and nothing else', () => {
    const s = busy();
    const t = screenTransitions(s);
    const sweep = { view: { id: 'sw1' } } as unknown as LiveSweep;
    t.showSweep(sweep);
    assert.equal(s.screen, 'sweep');
    assert.equal(s.sweep, sweep);
    const before = { ...s };
    t.goTo('history');
    assert.deepEqual(s, { ...before, screen: 'history' });
  });

  it('showRamp: the ramp on the Ramp screen, a failed start of the run before it cleared; the result shown stays for Back', () => {
    const s = busy();
    const ramp = { id: 'r1' } as unknown as RampView;
    screenTransitions(s).showRamp(ramp);
    assert.equal(s.screen, 'ramp');
    assert.equal(s.ramp, ramp);
    assert.equal(s.startFailure, null);
    assert.equal(s.result?.id, 'old-result');
  });
});
