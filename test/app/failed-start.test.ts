/**
 * The rule that tells a failed start from a result (electron/app/failed-start.ts):
 * nothing moved and an error (or never running) → a failed start; any byte → a result.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failedBeforeData, noByteMoved } from '../../electron/app/failed-start.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { makeIntervals, makeResult } from '../helpers/result-fixtures.js';

/** A run that failed at connect: streams planned, none moved a byte, one error. */
function refused(): LonghaulResult {
  const r = makeResult({ streams: [{ bytes: 0, seconds: null, completions: 0 }], partialReason: 'the run never started' });
  r.errors = [
    { code: 'LH_ERR_REFUSED', message: '127.0.0.1:1 refused the connection' },
    { code: 'LH_ERR_STOPPED', message: 'a consequence, not the cause' },
  ];
  for (const s of r.streams) s.send = s.receive = null;
  return r;
}

describe('failed start rule', () => {
  it('nothing moved and an error: a failed start, with the first error (the cause)', () => {
    assert.deepEqual(failedBeforeData(refused(), 'hello'), { code: 'LH_ERR_REFUSED', message: '127.0.0.1:1 refused the connection' });
    // A peer gone while "running" with nothing moved is still nothing to show.
    assert.equal(failedBeforeData(refused(), 'running')?.code, 'LH_ERR_REFUSED');
  });

  it('nothing moved, no error, never running: a failed start named by the partial reason', () => {
    const r = refused();
    r.errors = [];
    assert.deepEqual(failedBeforeData(r, 'params'), { code: 'LH_ERR_STOPPED', message: 'the run never started' });
    assert.deepEqual(failedBeforeData(r, null), { code: 'LH_ERR_STOPPED', message: 'the run never started' });
    // Reached the data phase without an error: a result (odd, but not a failure to start).
    assert.equal(failedBeforeData(r, 'done'), null);
  });

  it('any byte in any direction or view keeps it a (partial) result', () => {
    const received = makeResult({ streams: [{ bytes: 1, seconds: 0.1, completions: 1 }], partialReason: 'peer gone' });
    assert.equal(failedBeforeData(received, 'running'), null);
    // Sent but never received (the receiver died): the sender's count is a measurement too.
    const sentOnly = refused();
    sentOnly.streams[0]!.send = { side: 'controller', bytes: 65536, completions: 1, firstT: 0, lastT: 0, seconds: 0, error: null };
    assert.equal(noByteMoved(sentOnly), false);
    assert.equal(failedBeforeData(sentOnly, 'running'), null);
    const inIntervals = refused();
    inIntervals.intervals = makeIntervals([{ t: 1, received: [0], sent: [4096] }]);
    assert.equal(failedBeforeData(inIntervals, 'running'), null);
  });
});
