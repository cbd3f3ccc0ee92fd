/** A schedule's slots (electron/schedule/slots.ts): aligned to the interval, offset per PC, a missed slot run once. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextRound, slotAt, slotOffsetMs, slotStartMs } from '../../electron/schedule/slots.js';

const MIN15 = 15 * 60_000;

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
    const first = nextRound(now, MIN15, 0, null);
    assert.deepEqual(first, { slot: slotAt(now, MIN15, 0), atMs: now });
    const next = nextRound(now + 1000, MIN15, 0, first.slot);
    assert.equal(next.slot, first.slot + 1);
    assert.equal(new Date(next.atMs).toISOString(), '2026-12-06T12:15:00.000Z', 'on the quarter hour');
    assert.equal(slotStartMs(next.slot, MIN15, 0), next.atMs);
  });

  it('a restart or a sleep that missed slots runs the current one once, not every missed one', () => {
    const now = Date.UTC(2026, 11, 6, 18, 0, 5);
    const lastRun = slotAt(now, MIN15, 0) - 9; // asleep for more than two hours
    const r = nextRound(now, MIN15, 0, lastRun);
    assert.deepEqual(r, { slot: slotAt(now, MIN15, 0), atMs: now });
    const after = nextRound(now + 60_000, MIN15, 0, r.slot);
    assert.equal(after.slot, r.slot + 1, 'then the plan goes on from there');
  });
});
