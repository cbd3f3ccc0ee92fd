/** A schedule's slots (electron/schedule/slots.ts): aligned to the interval or a cron line, offset per PC, a missed slot run once. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cronClock, intervalClock, nextRound, slotOffsetMs } from '../../electron/schedule/slots.js';

const MIN15 = 15 * 60_000;
const every15 = intervalClock(MIN15);

/** The round, asserted to exist. */
function round(...args: Parameters<typeof nextRound>): { slot: number; atMs: number } {
  const r = nextRound(...args);
  assert.ok(r, 'a round');
  return r;
}

describe('schedule slots', () => {
  it('the offset is fixed for a name on a PC, differs between PCs, and stays under a tenth of the interval and 30 s', () => {
    const a = slotOffsetMs(MIN15, 'branch', 'pc-a');
    assert.equal(slotOffsetMs(MIN15, 'branch', 'pc-a'), a);
    const offsets = new Set(Array.from({ length: 20 }, (_, i) => slotOffsetMs(MIN15, 'branch', `pc-${i}`)));
    assert.ok(offsets.size >= 18, `${offsets.size} distinct offsets of 20 PCs`);
    for (const o of offsets) assert.ok(o >= 0 && o < 30_000);
    assert.ok(slotOffsetMs(20_000, 'x', 'pc') < 2000, 'a tenth of a 20 s interval');
  });

  it('runs the current slot at once the first time, then waits for the next slot start', () => {
    const now = Date.UTC(2026, 11, 6, 12, 7, 0);
    const first = round(now, every15, 0, null);
    assert.deepEqual(first, { slot: every15.slotAt(now), atMs: now });
    const next = round(now + 1000, every15, 0, first.slot);
    assert.equal(next.slot, first.slot + 1);
    assert.equal(new Date(next.atMs).toISOString(), '2026-12-06T12:15:00.000Z', 'on the quarter hour');
    assert.equal(every15.startMs(next.slot), next.atMs);
    assert.equal(round(now + 1000, every15, 4321, first.slot).atMs, next.atMs + 4321, 'the offset moves the start');
  });

  it('a restart or a sleep that missed slots runs the current one once, not every missed one', () => {
    const now = Date.UTC(2026, 11, 6, 18, 0, 5);
    const lastRun = (every15.slotAt(now) as number) - 9; // asleep for more than two hours
    const r = round(now, every15, 0, lastRun);
    assert.deepEqual(r, { slot: every15.slotAt(now), atMs: now });
    const after = round(now + 60_000, every15, 0, r.slot);
    assert.equal(after.slot, r.slot + 1, 'then the plan goes on from there');
  });

  it('a cron line: slots are its occurrences in local time, numbered by minute; missed ones run once', () => {
    const clock = cronClock('5,35 * * * *');
    assert.equal(clock.everyMs, 30 * 60_000, 'its nominal interval is the gap between occurrences');
    const now = new Date(2026, 11, 6, 12, 20, 0).getTime(); // local time, as cron reads it
    const first = round(now, clock, 0, null);
    assert.equal(new Date(clock.startMs(first.slot)).getMinutes(), 5, 'the occurrence under way (12:05)');
    assert.equal(first.atMs, now, 'run at once the first time');
    const next = round(now + 1000, clock, 0, first.slot);
    assert.deepEqual([new Date(next.atMs).getHours(), new Date(next.atMs).getMinutes()], [12, 35]);
    const later = new Date(2026, 11, 6, 17, 50, 0).getTime();
    const caughtUp = round(later, clock, 0, next.slot);
    assert.equal(new Date(clock.startMs(caughtUp.slot)).getHours(), 17, 'hours later: the current occurrence (17:35), once');
    assert.equal(caughtUp.atMs, later);
  });

  it('a cron line that is not one, or never occurs, is refused with the reason', () => {
    assert.throws(() => cronClock('61 * * * *'), /minute/);
    assert.throws(() => cronClock('* * *'), /five/);
    assert.throws(() => cronClock('*/5 * * * * *'), /five|5/, 'seconds are not a cron field here');
    assert.throws(() => cronClock('0 0 30 2 *'), /never occurs/);
  });
});
