/**
 * The scheduler's own bookkeeping (electron/schedule/scheduler.ts), with fake peers: a schedule
 * lives for days on one AbortSignal, so nothing a test hangs on it may stay after the test (a real
 * run adds abort listeners; before each test had its own signal, 11 tests tripped Node's
 * MaxListenersExceededWarning and the listeners grew without bound).
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { ScheduleMetrics } from '../../electron/schedule/schedule-metrics.js';
import { Scheduler } from '../../electron/schedule/scheduler.js';
import { cronClock, intervalClock } from '../../electron/schedule/slots.js';
import type { RunTarget } from '../../electron/sweep/run-target.js';
import { recordRun } from '../helpers/result-fixtures.js';

describe('scheduler', () => {
  it("leaves nothing on the schedule's signal after each test", async () => {
    const outer = new AbortController();
    let n = 0;
    const target: RunTarget = {
      label: 'fake',
      open: async () => undefined,
      close: async () => undefined,
      run: async (_s, signal) => {
        signal.addEventListener('abort', () => undefined); // as a real run does, never removed by it
        return { ...recordRun(), id: (++n).toString(16).padStart(16, '0') };
      },
    };
    const s = new Scheduler({
      name: 'leak',
      clock: intervalClock(20),
      peers: [{ host: 'a', port: 1 }],
      settings: { params: recordRun().params, link: null, path: 'direct' },
      targetOf: () => target,
      save: async () => ({ savedPath: null, saveError: null }),
      metrics: new ScheduleMetrics(),
      hostname: 'pc',
      onEvent: () => undefined,
      maxRounds: 15,
    });
    await s.run(outer.signal);
    assert.equal(n, 15);
    assert.equal(getEventListeners(outer.signal, 'abort').length, 0, 'every listener went with its test');
  });
});

describe('scheduler and a clock that jumps', () => {
  it('a wall clock stepped forward while waiting for a slot runs the slot then under way, once (not every one skipped)', async () => {
    let offsetMs = 0;
    const now = (): number => Date.now() + offsetMs;
    const slots: number[] = [];
    const waits: number[] = [];
    const target: RunTarget = {
      label: 'fake',
      open: async () => undefined,
      close: async () => undefined,
      run: async () => ({ ...recordRun(), id: (slots.length + 1).toString(16).padStart(16, '0') }),
    };
    const s = new Scheduler({
      name: 'jump',
      clock: intervalClock(3600_000),
      peers: [{ host: 'a', port: 1 }],
      settings: { params: recordRun().params, link: null, path: 'direct' },
      targetOf: () => target,
      save: async () => ({ savedPath: null, saveError: null }),
      metrics: new ScheduleMetrics(),
      hostname: 'pc',
      now,
      maxRounds: 2,
      onEvent: (e) => {
        if (e.kind === 'run') slots.push(e.record.slot);
        if (e.kind === 'waiting') waits.push(e.slot);
      },
    });
    const running = s.run(new AbortController().signal);
    // The first round runs at once; then it waits for the next hour. The clock jumps 5 hours ahead.
    for (let i = 0; i < 100 && slots.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    offsetMs = 5 * 3600_000;
    await running; // within one wake (at most 5 s)
    assert.equal(slots.length, 2);
    assert.equal((slots[1] ?? 0) - (slots[0] ?? 0), 5, 'the slot under way after the jump, not the next one after the first');
    assert.deepEqual(waits, [(slots[0] ?? 0) + 1], 'it had waited for the next slot before the jump');
  });
});

describe("the schedule's interval on /metrics", () => {
  /** The interval gauge's value for `name` now, or null when there is none. */
  async function intervalOf(m: ScheduleMetrics, name: string): Promise<number | null> {
    const line = (await m.text()).split('\n').find((l) => l.startsWith(`longhaul_schedule_interval_seconds{schedule="${name}"}`));
    return line ? Number(line.split(' ').pop()) : null;
  }

  it("is a cron line's gap from the slot under way to the next, and goes when the schedule stops", async () => {
    const metrics = new ScheduleMetrics();
    const seen: (number | null)[] = [];
    const target: RunTarget = {
      label: 'fake',
      open: async () => undefined,
      close: async () => undefined,
      run: async () => {
        seen.push(await intervalOf(metrics, 'weekdays'));
        return { ...recordRun(), id: '1'.padStart(16, '0') };
      },
    };
    // 09:00 on weekdays: a slot is always under way (the last occurrence), so the first round runs at once.
    const clock = cronClock('0 9 * * 1-5');
    const s = new Scheduler({
      name: 'weekdays',
      clock,
      peers: [{ host: 'a', port: 1 }],
      settings: { params: recordRun().params, link: null, path: 'direct' },
      targetOf: () => target,
      save: async () => ({ savedPath: null, saveError: null }),
      metrics,
      hostname: 'pc',
      onEvent: () => undefined,
      maxRounds: 1,
    });
    await s.run(new AbortController().signal);
    const slot = clock.slotAt(Date.now())!;
    const gap = (clock.startMs(clock.after(slot)!) - clock.startMs(slot)) / 1000;
    // Monday to Thursday: a day to the next 09:00; Friday: three days; the local clock's DST day aside.
    assert.ok(
      [86_400, 3 * 86_400].some((d) => Math.abs(gap - d) <= 3600),
      `gap ${gap} s`,
    );
    assert.deepEqual(seen, [gap], 'served while its test ran');
    assert.equal(await intervalOf(metrics, 'weekdays'), null, 'not running: no interval, so no alert calls it late');
  });
});
