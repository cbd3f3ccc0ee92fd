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
import { intervalClock } from '../../electron/schedule/slots.js';
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
