/**
 * The emulator's stall clock on a driven clock: the 5 ms timer is mock time, and each tick is told
 * how long really passed (`now`) and how much CPU the process used meanwhile (`cpuMs`). A tick later
 * than the timer's floor by more than STALL_MS counts its lateness, less the time the process ran.
 */
import assert from 'node:assert/strict';
import { describe, it, mock, type TestContext } from 'node:test';
import { STALL_MS, StallClock } from '../../electron/proxy/stall-clock.js';

/** A stall clock whose every 5 ms tick is handed the gap and the CPU time of our choosing. */
function driven(t: TestContext): { clock: StallClock; tick: (gapMs: number, ranMs?: number) => void; ticks: () => number } {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  let nowMs = 1_000;
  let cpuMs = 50;
  let reads = 0;
  const clock = new StallClock(
    () => {
      reads++;
      return nowMs;
    },
    () => cpuMs,
  );
  return {
    clock,
    tick: (gapMs, ranMs = 0) => {
      nowMs += gapMs;
      cpuMs += ranMs;
      mock.timers.tick(5);
    },
    ticks: () => reads,
  };
}

describe('StallClock', () => {
  it('ticks on time, or late by up to STALL_MS, are no stall', (t) => {
    const { clock, tick } = driven(t);
    clock.start(() => true);
    for (let i = 0; i < 200; i++) tick(5);
    tick(5 + STALL_MS);
    tick(5 + STALL_MS, 0);
    assert.equal(clock.stalledMs, 0);
    clock.stop();
  });

  it('a process stopped 200 ms (no CPU) stalled 200 ms: the lateness beyond the 5 ms tick', (t) => {
    const { clock, tick } = driven(t);
    clock.start(() => true);
    tick(5);
    tick(205);
    assert.equal(clock.stalledMs, 200);
    tick(5);
    tick(5 + STALL_MS + 1);
    assert.equal(clock.stalledMs, 211, 'stalls add up');
    clock.stop();
  });

  it('a busy event loop is not a stall: the time it ran on a CPU is taken off the gap', (t) => {
    const { clock, tick } = driven(t);
    clock.start(() => true);
    tick(5);
    tick(205, 205); // late, but running all along (its own work, any of its threads)
    assert.equal(clock.stalledMs, 0);
    tick(205, 80); // ran 80 of 205 ms: 125 ms it did not run
    assert.equal(clock.stalledMs, 125);
    tick(205, 300); // more CPU than wall time (several threads): never negative
    assert.equal(clock.stalledMs, 125);
    clock.stop();
  });

  it("lateness counts beyond the timer's own floor: a Windows PC's 15.625 ms tick is not late", (t) => {
    const { clock, tick } = driven(t);
    clock.start(() => true);
    for (let i = 0; i < 100; i++) tick(15.625);
    tick(15.625 + STALL_MS);
    assert.equal(clock.stalledMs, 0);
    tick(65.625);
    assert.equal(clock.stalledMs, 50);
    tick(5); // a finer tick lowers the floor: lateness counts from 5 ms again
    tick(65.625);
    assert.equal(clock.stalledMs, 50 + 60.625);
    clock.stop();
  });

  it('the first tick teaches the floor: a stall inside it is not seen, later ones are', (t) => {
    const { clock, tick } = driven(t);
    clock.start(() => true);
    tick(205);
    assert.equal(clock.stalledMs, 0, 'the floor is learned, not assumed: 205 ms is all it has seen');
    tick(5);
    tick(205);
    assert.equal(clock.stalledMs, 200);
    clock.stop();
  });

  it('a gap shorter than the 5 ms tick (an early timer, a coarse clock) does not lower the floor below 5 ms', (t) => {
    const { clock, tick } = driven(t);
    clock.start(() => true);
    tick(2);
    tick(5 + STALL_MS + 1);
    assert.equal(clock.stalledMs, STALL_MS + 1);
    clock.stop();
  });

  it('counts nothing while stopped, and measures the gap from a new start', (t) => {
    const { clock, tick, ticks } = driven(t);
    clock.start(() => true);
    tick(5);
    clock.stop();
    const reads = ticks();
    tick(500, 400);
    tick(500, 400);
    assert.equal(ticks(), reads, 'no tick while stopped');
    assert.equal(clock.stalledMs, 0, 'idle time between connections is no stall');
    clock.start(() => true);
    tick(105);
    assert.equal(clock.stalledMs, 100, 'the gap and the CPU time are measured from the new start');
    clock.stop();
    clock.stop();
  });

  // Real timers here: Node 20's mock timers re-arm an interval cleared inside its own callback
  // (nodejs/node#59483, fixed in later releases), which is how the clock stops itself.
  it('stops itself on the first tick that finds nothing active', async () => {
    let reads = 0;
    let asked = 0;
    const clock = new StallClock(
      () => 1_000 + 500 * reads++, // every tick 500 ms late: a stall if it were counted
      () => 0,
    );
    clock.start(() => {
      asked++;
      return false;
    });
    const deadline = Date.now() + 10_000;
    while (asked === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal(asked, 1, 'one tick ran');
    // Timers due earlier run first: a 5 ms interval still armed would tick before this 100 ms wait ends.
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(asked, 1, 'and no other');
    assert.equal(reads, 2, 'the start and that tick');
  });

  it('a second start while ticking keeps one timer', (t) => {
    const { clock, tick, ticks } = driven(t);
    clock.start(() => true);
    clock.start(() => true);
    const reads = ticks();
    tick(5);
    assert.equal(ticks(), reads + 1);
    clock.stop();
  });
});
