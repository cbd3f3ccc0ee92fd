/**
 * What both ends of a run share: a sample as the peer receives it, the read timeout while running,
 * this PC's OS, and a failed run's wait for its workers' ends (on mock timers, a fake plane).
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import { describe, it, mock } from 'node:test';
import type { SideSample } from '../../../electron/engine/data-plane/data-plane.js';
import { collectThenFinish, localOs, runningTimeoutMs, sampleMessage, STOP_GRACE_MS } from '../../../electron/engine/session/run-common.js';

describe('sampleMessage', () => {
  it("carries a side's sample field for field, and leaves out what the side did not measure", () => {
    const bare: SideSample = { index: 3, t: 0.75, final: false, streams: [[0, 1000, 4]] };
    assert.deepEqual(sampleMessage(bare), { type: 'sample', index: 3, t: 0.75, final: false, streams: [[0, 1000, 4]] });
    const udp: [number, { datagrams: number; bytes: number; lost: number; outOfOrder: null; duplicates: null; jitterMs: null }][] = [
      [0, { datagrams: 1, bytes: 1460, lost: 0, outOfOrder: null, duplicates: null, jitterMs: null }],
    ];
    const full: SideSample = { ...bare, index: 1, final: true, tcp: [], udp, from: -0.09 };
    assert.deepEqual(sampleMessage(full), { type: 'sample', index: 1, t: 0.75, final: true, streams: [[0, 1000, 4]], tcp: [], udp, from: -0.09 });
    assert.equal('from' in sampleMessage({ ...bare, from: undefined }), false);
    assert.deepEqual(sampleMessage({ ...bare, from: 0 }).from, 0, 'a lead-in of 0 s is still said');
  });
});

describe('runningTimeoutMs', () => {
  it('is five intervals of silence, never under 10 s (a slow link)', () => {
    assert.equal(runningTimeoutMs(0.1), 10_000);
    assert.equal(runningTimeoutMs(2), 10_000);
    assert.equal(runningTimeoutMs(3), 15_000);
    assert.equal(runningTimeoutMs(60), 300_000);
  });
});

describe('localOs', () => {
  it("is this PC's platform and release, as its hello says", () => {
    assert.deepEqual(localOs(), { platform: os.platform(), release: os.release() });
  });
});

describe('collectThenFinish', () => {
  class FakePlane extends EventEmitter {
    stops: number[] = [];
    stop(graceMs: number): void {
      this.stops.push(graceMs);
    }
  }

  it('stops the workers with a short grace and finishes when their ends are in, once', (t) => {
    mock.timers.enable({ apis: ['setTimeout'] });
    t.after(() => mock.timers.reset());
    const plane = new FakePlane();
    let finished = 0;
    collectThenFinish(plane as never, () => finished++);
    assert.deepEqual(plane.stops, [Math.min(STOP_GRACE_MS, 1000)]);
    mock.timers.tick(2_999);
    assert.equal(finished, 0);
    plane.emit('done', []);
    assert.equal(finished, 1);
    mock.timers.tick(10_000);
    assert.equal(finished, 1, 'the wait ended with the ends');
  });

  it('finishes after 3 s without the ends, and not again when they come late', (t) => {
    mock.timers.enable({ apis: ['setTimeout'] });
    t.after(() => mock.timers.reset());
    const plane = new FakePlane();
    let finished = 0;
    collectThenFinish(plane as never, () => finished++);
    mock.timers.tick(2_999);
    assert.equal(finished, 0);
    mock.timers.tick(1);
    assert.equal(finished, 1);
    plane.emit('done', []);
    assert.equal(finished, 2, 'a late end finishes again: the caller makes finish run-once');
  });
});
