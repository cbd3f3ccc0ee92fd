/**
 * ClampPoller on mock timers, with an addon stand-in whose "kernel" replaces
 * the clamp: one timer for all watches, puts the clamp back within a poll,
 * stops polling a watch after its first minute, and stops its timer when the
 * last watch goes.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { ClampPoller } from '../../electron/native/advertised-window.js';
import type { NativeApi } from '../../electron/native/native-api.js';

/** A clamp per descriptor, which the test changes as the kernel would. */
function fakeClampApi(clamps: Map<number, number>): NativeApi {
  return {
    windowClamp: {
      get: (fd: number) => clamps.get(fd) ?? 0,
      set: (fd: number, bytes: number) => void clamps.set(fd, bytes),
    },
  } as unknown as NativeApi;
}

describe('ClampPoller', () => {
  // Timers looked up at each call, so the mocked globals apply.
  const clock = {
    nowNs: () => BigInt(Date.now()) * 1_000_000n,
    setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
    clearInterval: (t: NodeJS.Timeout) => clearInterval(t),
  };
  beforeEach(() => mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 }));
  afterEach(() => mock.timers.reset());

  it('puts a replaced clamp back at the next 5 ms poll, for the first minute only', () => {
    const clamps = new Map([[7, 8760]]);
    const poller = new ClampPoller(clock);
    const w = poller.watch(fakeClampApi(clamps), 7, 8760, () => true);
    clamps.set(7, 10_950); // the kernel re-derived it
    mock.timers.tick(5);
    assert.deepEqual([clamps.get(7), w.corrections], [8760, 1]);
    mock.timers.tick(60_000);
    assert.equal(poller.size, 0, 'released after its first minute');
    clamps.set(7, 10_950);
    mock.timers.tick(5);
    assert.equal(w.corrections, 1, 'no longer polled (the sampling tick checks it from now on)');
    assert.equal(w.check(), true);
  });

  it('never touches a socket that is gone, and close() releases every watch', () => {
    const clamps = new Map([
      [3, 1000],
      [4, 1000],
    ]);
    let open = true;
    const poller = new ClampPoller(clock);
    const a = poller.watch(fakeClampApi(clamps), 3, 1000, () => open);
    poller.watch(fakeClampApi(clamps), 4, 1000, () => true);
    open = false;
    clamps.set(3, 5);
    mock.timers.tick(5);
    assert.deepEqual([clamps.get(3), a.corrections], [5, 0]);
    poller.close();
    poller.close();
    assert.equal(poller.size, 0);
  });

  it('two pollers keep their own watches', () => {
    const clamps = new Map([[9, 100]]);
    const one = new ClampPoller(clock);
    const two = new ClampPoller(clock);
    one.watch(fakeClampApi(clamps), 9, 100, () => true);
    two.watch(fakeClampApi(clamps), 9, 100, () => true).stopPolling();
    assert.deepEqual([one.size, two.size], [1, 0]);
    one.close();
  });
});
