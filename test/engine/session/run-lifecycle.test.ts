/**
 * A side's run moves only forward through its phases. The controller's is a line (setup → running →
 * stopping → ended → settled) where a step back or a repeat is refused and changes nothing. The
 * responder needs two things in either order, the controller's stop and its own streams' end, and
 * says "report now" exactly when the second of them arrives, whichever it is; settling ends both
 * from any phase, once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ControllerLifecycle, ResponderLifecycle } from '../../../electron/engine/session/run-lifecycle.js';

describe('controller lifecycle', () => {
  it('moves forward, may skip ahead, and refuses to go back or repeat', () => {
    const c = new ControllerLifecycle();
    assert.equal(c.advance('running'), true);
    assert.equal(c.advance('running'), false, 'a repeat changes nothing');
    assert.equal(c.advance('ended'), true, 'a failure may skip stopping');
    assert.equal(c.advance('stopping'), false, 'no way back');
    assert.equal(c.phase, 'ended');
    assert.ok(c.reached('running') && c.reached('ended') && !c.reached('settled'));
  });
});

describe('responder lifecycle', () => {
  it('stop then own ends: reports on the ends, not before', () => {
    const r = new ResponderLifecycle();
    assert.equal(r.start(), true);
    assert.equal(r.stopReceived(), false);
    assert.equal(r.awaitingStop, false);
    assert.equal(r.ownEnds(), true);
    assert.equal(r.phase, 'reporting');
  });

  it('own ends then stop: reports on the stop, and still awaits it while drained', () => {
    const r = new ResponderLifecycle();
    r.start();
    assert.equal(r.ownEnds(), false);
    assert.ok(r.awaitingStop && r.hasOwnEnds);
    assert.equal(r.stopReceived(), true);
    assert.equal(r.awaitingStop, false);
  });

  it('starts once; a stop before any start does not start it', () => {
    const r = new ResponderLifecycle();
    assert.equal(r.stopReceived(), false);
    assert.equal(r.phase, 'setup');
    assert.equal(r.start(), true);
    assert.equal(r.start(), false);
    assert.equal(r.started, true);
  });

  it('settles from any phase once, keeping whether it had started', () => {
    const fresh = new ResponderLifecycle();
    assert.equal(fresh.settle(), true);
    assert.equal(fresh.settle(), false);
    assert.equal(fresh.started, false);
    const run = new ResponderLifecycle();
    run.start();
    run.settle();
    assert.ok(run.settled && run.started);
    assert.equal(run.ownEnds(), false, 'nothing moves after settling');
    assert.equal(run.phase, 'settled');
  });
});
