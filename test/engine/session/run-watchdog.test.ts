/** The watchdog of a timed run: fires only once nothing has moved for a whole quiet period after the deadline. */
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { RunWatchdog } from '../../../electron/engine/session/run-watchdog.js';

describe('RunWatchdog', () => {
  it('waits past the deadline while bytes still drain, and fires after one quiet period', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      let moved = 0;
      const fired: number[] = [];
      const w = new RunWatchdog(
        10_000,
        3_000,
        () => moved,
        (s) => fired.push(s),
      );
      mock.timers.tick(10_000); // the deadline: bytes moved since the start
      moved = 500;
      mock.timers.tick(3_000); // still draining over a slow link
      assert.deepEqual(fired, []);
      mock.timers.tick(3_000); // nothing moved for a quiet period
      assert.deepEqual(fired, [3]);
      mock.timers.tick(30_000);
      assert.deepEqual(fired, [3], 'once');
      w.stop();
    } finally {
      mock.timers.reset();
    }
  });

  it('never fires for a run with no deadline, nor once stopped', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const fired: number[] = [];
      new RunWatchdog(
        null,
        1_000,
        () => 0,
        (s) => fired.push(s),
      );
      const stopped = new RunWatchdog(
        1_000,
        1_000,
        () => 0,
        (s) => fired.push(s),
      );
      stopped.stop();
      mock.timers.tick(60_000);
      assert.deepEqual(fired, []);
    } finally {
      mock.timers.reset();
    }
  });
});
