/**
 * Pairing proofs are checked one at a time, in arrival order: a check never starts while another
 * runs. An address that already has a proof waiting or being checked is told 'busy', as is anyone
 * once `capacity` addresses wait; a check that throws still lets the next one run, and an address
 * may ask again once its own check is over. Checks here are promises the test settles by hand.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProofQueue } from '../../electron/security/proof-queue.js';

/** A check the test finishes when it wants, recording when it started and ended. */
function manualCheck(log: string[], name: string): { check: () => Promise<string>; finish: () => void; fail: () => void } {
  let resolve!: (v: string) => void;
  let reject!: (e: Error) => void;
  const done = new Promise<string>((res, rej) => ((resolve = res), (reject = rej)));
  return {
    check: () => {
      log.push(`start ${name}`);
      return done.finally(() => log.push(`end ${name}`));
    },
    finish: () => resolve(name),
    fail: () => reject(new Error(`${name} failed`)),
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** What `p` settles to by the next turn of the event loop, or 'still waiting' (so a wrong queue fails, not hangs). */
const soon = <T>(p: Promise<T>): Promise<T | 'still waiting'> => Promise.race([p, tick().then(() => 'still waiting' as const)]);

describe('proof queue', () => {
  it('checks one at a time, in arrival order', async () => {
    const q = new ProofQueue();
    const log: string[] = [];
    const a = manualCheck(log, 'a');
    const b = manualCheck(log, 'b');
    const ra = q.run('10.0.0.1', a.check);
    const rb = q.run('10.0.0.2', b.check);
    await tick();
    assert.deepEqual(log, ['start a'], 'b waits while a is checked');
    b.finish(); // b's result is ready early, but it has not started
    a.finish();
    assert.equal(await ra, 'a');
    assert.equal(await rb, 'b');
    assert.deepEqual(log, ['start a', 'end a', 'start b', 'end b']);
  });

  it('an address with a proof in the queue is busy; once it is checked it may ask again', async () => {
    const q = new ProofQueue();
    const log: string[] = [];
    const a = manualCheck(log, 'a');
    const ra = q.run('10.0.0.1', a.check);
    assert.equal(await soon(q.run('10.0.0.1', () => Promise.resolve('again'))), 'busy');
    a.finish();
    await ra;
    assert.equal(await q.run('10.0.0.1', () => Promise.resolve('again')), 'again');
  });

  it('past capacity everyone is busy, until the queue drains', async () => {
    const q = new ProofQueue(2);
    const log: string[] = [];
    const a = manualCheck(log, 'a');
    const b = manualCheck(log, 'b');
    const ra = q.run('a', a.check);
    const rb = q.run('b', b.check);
    assert.equal(await soon(q.run('c', () => Promise.resolve('c'))), 'busy');
    a.finish();
    b.finish();
    await Promise.all([ra, rb]);
    assert.equal(await q.run('c', () => Promise.resolve('c')), 'c');
  });

  it('a check that throws still lets the next one run', async () => {
    const q = new ProofQueue();
    const log: string[] = [];
    const a = manualCheck(log, 'a');
    const ra = q.run('a', a.check);
    const rb = q.run('b', () => Promise.resolve('b'));
    a.fail();
    await assert.rejects(ra, /a failed/);
    assert.equal(await rb, 'b');
  });
});
