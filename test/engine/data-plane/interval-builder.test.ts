/**
 * The interval builder turns both sides' cumulative counters into per-interval numbers on one
 * clock: the receiving side's (the responder's for a forward run, the controller's otherwise).
 * Each stream's sent bytes are the difference of its sender's counter, its received bytes and
 * completions the receiver's; a side that did not sample leaves its figures unknown (null, not 0)
 * and lends its clock shifted by `offset` only when the reference side is the one missing. An
 * interval never ends before the one ahead of it, and its length is its end less that one's; the
 * first one begins at the receiver's first byte when that came before its clock's 0. The per-stream
 * TCP figures are checked in test/engine/interval-tcp.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IntervalBuilder, referenceSide, type CumulativeSample } from '../../../electron/engine/data-plane/interval-builder.js';

/** Stream 1 sent by the controller, stream 2 by the responder (a bidirectional run). */
const plan = [
  { id: 1, sender: 'controller' as const },
  { id: 2, sender: 'responder' as const },
];

function sample(t: number, s1: [number, number], s2: [number, number], from?: number): CumulativeSample {
  return {
    index: 0,
    t,
    final: false,
    streams: [
      [1, ...s1],
      [2, ...s2],
    ],
    ...(from !== undefined ? { from } : {}),
  };
}

describe('interval builder', () => {
  it('the receiving side is the clock: the responder for forward, the controller otherwise', () => {
    assert.deepEqual((['forward', 'reverse', 'bidir'] as const).map(referenceSide), ['responder', 'controller', 'controller']);
  });

  it("differences of each stream's sender and receiver counters, summed over streams", () => {
    const b = new IntervalBuilder(plan, 'controller');
    b.next(1, sample(0.25, [1_000, 0], [700, 2]), sample(0.26, [900, 3], [800, 0]));
    const iv = b.next(2, sample(0.5, [3_000, 0], [1_700, 5]), sample(0.51, [2_600, 7], [2_000, 0]));
    assert.deepEqual(
      iv.streams.map((s) => [s.id, s.sentBytes, s.receivedBytes, s.receiveCompletions]),
      [
        [1, 2_000, 1_700, 4],
        [2, 1_200, 1_000, 3],
      ],
    );
    assert.deepEqual([iv.sentBytes, iv.receivedBytes], [3_200, 2_700]);
    assert.deepEqual([iv.t, iv.seconds, iv.controllerT, iv.responderT], [0.5, 0.25, 0.5, 0.51]);
  });

  it("a side that did not sample: its figures unknown, and the other side's clock shifted by the offset", () => {
    const b = new IntervalBuilder(plan, 'controller', -0.02);
    b.next(1, sample(1, [1_000, 1], [1_000, 1]), sample(1.02, [1_000, 1], [1_000, 1]));
    const iv = b.next(2, undefined, sample(2.03, [2_500, 2], [1_800, 2]));
    assert.ok(Math.abs(iv.t - 2.01) < 1e-9, `responder t + offset: ${iv.t}`);
    assert.equal(iv.controllerT, null);
    assert.deepEqual(
      iv.streams.map((s) => [s.sentBytes, s.receivedBytes]),
      [
        [null, 1_500],
        [800, null],
      ],
    );
    // The next controller sample's difference spans both intervals: nothing is lost or counted twice.
    const after = b.next(3, sample(3, [4_000, 3], [3_000, 3]), undefined);
    assert.equal(after.streams[0]?.sentBytes, 3_000);
    assert.equal(after.receivedBytes, 2_000, "only the controller's view of stream 2, since its last sample");
    assert.equal(after.sentBytes, 3_000);
  });

  it('an interval never ends before the one ahead of it', () => {
    const b = new IntervalBuilder(plan, 'responder', 0.5);
    b.next(1, undefined, sample(1, [0, 0], [0, 0]));
    const iv = b.next(2, sample(0.2, [0, 0], [0, 0]), undefined); // 0.2 + 0.5 is before 1
    assert.deepEqual([iv.t, iv.seconds], [1, 0]);
  });

  it("the first interval starts at the receiver's first byte when that came before its clock's 0", () => {
    const early = new IntervalBuilder(plan, 'controller').next(1, sample(0.25, [0, 0], [0, 0], -0.1), undefined);
    assert.ok(Math.abs(early.seconds - 0.35) < 1e-12, `seconds ${early.seconds}`);
    const other = new IntervalBuilder(plan, 'responder').next(1, sample(0.25, [0, 0], [0, 0], -0.1), sample(0.25, [0, 0], [0, 0]));
    assert.equal(other.seconds, 0.25, "the sender's lead-in does not lengthen the receiver's interval");
  });

  it('marks the intervals whose middle lies in the omitted seconds', () => {
    const b = new IntervalBuilder(plan, 'controller', 0, 1);
    const marks = [0.5, 1, 1.5, 2].map((t, i) => b.next(i + 1, sample(t, [0, 0], [0, 0]), undefined).omitted ?? false);
    assert.deepEqual(marks, [true, true, false, false]);
  });
});
