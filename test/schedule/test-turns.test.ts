/** One test at a time on this PC (electron/schedule/test-turns.ts): first come first served, a wait said once, the app's own run waited for, a stop while waiting. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TestTurns } from '../../electron/schedule/test-turns.js';

describe('test turns', () => {
  it('gives the turn in the order asked, and tells a waiting test what is ahead, once', async () => {
    const turns = new TestTurns();
    const order: string[] = [];
    const waits: string[] = [];
    const a = await turns.take(
      'a',
      (w) => waits.push(`a:${w}`),
      () => false,
    );
    const b = turns
      .take(
        'b',
        (w) => waits.push(`b:${w}`),
        () => false,
      )
      .then((rel) => (order.push('b'), rel));
    const c = turns
      .take(
        'c',
        (w) => waits.push(`c:${w}`),
        () => false,
      )
      .then((rel) => (order.push('c'), rel));
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(order, [], 'nobody runs beside a');
    assert.equal(turns.current, 'a');
    a?.();
    (await b)?.();
    (await c)?.();
    assert.deepEqual(order, ['b', 'c']);
    assert.deepEqual(waits, ['b:a test of a', 'c:a test of a']);
    assert.equal(turns.current, null);
  });

  it("waits while the PC is busy elsewhere (the app's own run), and gives up when stopped", async () => {
    let busy: string | null = 'a run started in the app';
    const turns = new TestTurns(() => busy);
    const told: string[] = [];
    const pending = turns.take(
      'x',
      (w) => told.push(w),
      () => false,
    );
    setTimeout(() => (busy = null), 700);
    const t0 = Date.now();
    const release = await pending;
    assert.ok(Date.now() - t0 >= 600, 'held until the run ended');
    assert.deepEqual(told, ['a run started in the app']);
    release?.();
    busy = 'a sweep';
    let stop = false;
    const stopped = turns.take(
      'y',
      () => undefined,
      () => stop,
    );
    setTimeout(() => (stop = true), 100);
    assert.equal(await stopped, null, 'a stop ends the wait without a turn');
    busy = null;
    const next = await turns.take(
      'z',
      () => assert.fail('free again'),
      () => false,
    );
    next?.();
  });
});
