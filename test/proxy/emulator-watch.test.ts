/**
 * The emulator watching its own schedule, on a driven clock (every time is passed in, ms): bytes
 * released more than LATE_MS after they were due are late, unless they waited for a receiver that
 * stopped reading; the relay's time behind the sender is the busiest connection's, live or ended.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EmulatorWatch, LATE_MS } from '../../electron/proxy/emulator-watch.js';

describe('EmulatorWatch', () => {
  it('has no figures before anything went this way', () => {
    const w = new EmulatorWatch();
    assert.equal(w.figures(), null);
    w.track({ behindMs: 40 });
    assert.equal(w.figures(), null, 'a connection alone is not traffic');
  });

  it('counts bytes released more than LATE_MS after they were due as late, and the worst lateness', () => {
    const w = new EmulatorWatch();
    w.released(1000, 100, 100, false); // on time
    w.released(2000, 200, 200 + LATE_MS, false); // exactly LATE_MS: a timer's tick, not late
    w.released(4000, 300, 300 + LATE_MS + 0.001, false); // just over
    w.released(8000, 400, 437.25, false); // 37.25 ms late
    w.released(16000, 600, 599, false); // early (a timer may fire a hair early): not late
    assert.deepEqual(w.figures(), {
      releasedBytes: 31000,
      activeSeconds: 0.499,
      lateBytes: 12000,
      maxLateMs: 37.25,
      behindSeconds: 0,
    });
  });

  it("does not count a wait for a receiver that stopped reading: that lateness is the receiver's", () => {
    const w = new EmulatorWatch();
    w.released(5000, 0, 2_000, true); // due at 0, held 2 s by a full sink
    w.released(100, 2_000, 2_001, false);
    assert.deepEqual(w.figures(), { releasedBytes: 5100, activeSeconds: 0.001, lateBytes: 0, maxLateMs: 1, behindSeconds: 0 });
  });

  it('rounds the worst lateness to a microsecond; active time runs from the first release to the last', () => {
    const w = new EmulatorWatch();
    w.released(1, 987.6543211, 1_000, false);
    w.released(1, 3_500, 3_500, false);
    assert.equal(w.figures()?.maxLateMs, 12.346);
    assert.equal(w.figures()?.activeSeconds, 2.5);
  });

  it("behind is the busiest connection's, read live, and kept after it ends", () => {
    const w = new EmulatorWatch();
    const a = { behindMs: 120 };
    const b = { behindMs: 30 };
    w.track(a);
    w.track(b);
    w.released(1, 0, 0, false);
    assert.equal(w.figures()?.behindSeconds, 0.12);
    a.behindMs = 250.4; // a live connection's count grows
    assert.equal(w.figures()?.behindSeconds, 0.25);
    w.untrack(a);
    a.behindMs = 9_999; // no longer read once ended
    b.behindMs = 200;
    assert.equal(w.figures()?.behindSeconds, 0.25, 'the ended connection still speaks for the link');
    b.behindMs = 400;
    assert.equal(w.figures()?.behindSeconds, 0.4);
    w.untrack(b);
    w.untrack(b);
    w.untrack({ behindMs: 5_000 }); // never tracked: ignored
    assert.equal(w.figures()?.behindSeconds, 0.4);
    const quiet = { behindMs: 10 };
    w.track(quiet);
    w.untrack(quiet);
    assert.equal(w.figures()?.behindSeconds, 0.4, 'a quieter connection ending later does not lower it');
  });
});
