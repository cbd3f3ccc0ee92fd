/**
 * A receiving worker's first sample says when its first byte was read, when that came before its
 * clock started (the start message handled late by a busy loop): the first interval then began at
 * that byte, not at 0. Streams are fed as their counts, on a worker clock of nanoseconds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bytesAndCalls, leadIn } from '../../../../electron/engine/data-plane/data-worker/lead-in.js';
import type { Stream } from '../../../../electron/engine/data-plane/data-worker/stream.js';

/** A stream whose loop has read its first byte at `firstNs` (0n: nothing read yet). */
function stream(firstNs: bigint): Stream {
  return { loop: { counts: () => ({ bytes: firstNs === 0n ? 0 : 1000, completions: 1, firstNs }) } } as unknown as Stream;
}

const ms = (n: number): bigint => BigInt(n) * 1_000_000n;
/** The worker's clock started at 5 s (the monotonic clock's zero is anywhere). */
const startNs = ms(5_000);

describe('leadIn', () => {
  it("a byte read 90 ms before the clock started puts the first interval's start at −0.09 s", () => {
    assert.deepEqual(leadIn('receive', 1, [stream(startNs - ms(90))], startNs), { from: -0.09 });
  });

  it("takes the earliest first byte of the worker's streams, skipping streams that read nothing", () => {
    const streams = [stream(startNs - ms(20)), stream(startNs - ms(140)), stream(startNs + ms(3)), stream(0n)];
    assert.deepEqual(leadIn('receive', 1, streams, startNs), { from: -0.14 });
    assert.deepEqual(leadIn('receive', 1, [stream(0n), stream(startNs - ms(1))], startNs), { from: -0.001 }, 'an empty stream first is not the earliest');
    assert.deepEqual(leadIn('receive', 1, [stream(startNs - ms(1)), stream(0n)], startNs), { from: -0.001 }, 'nor an empty stream last');
  });

  it('says nothing when the first byte came at or after the start, or none came', () => {
    assert.deepEqual(leadIn('receive', 1, [stream(startNs)], startNs), {});
    assert.deepEqual(leadIn('receive', 1, [stream(startNs + ms(50)), stream(startNs + 1n)], startNs), {});
    assert.deepEqual(leadIn('receive', 1, [stream(0n), stream(0n)], startNs), {});
    assert.deepEqual(leadIn('receive', 1, [], startNs), {});
    assert.deepEqual(leadIn('receive', 1, [stream(startNs - 1n)], startNs), { from: -1e-9 }, 'one nanosecond early is early');
  });

  it("only a receiver's first sample: a sender starts at its own 0, and later samples begin where the last ended", () => {
    const early = [stream(startNs - ms(90))];
    assert.deepEqual(leadIn('send', 1, early, startNs), {});
    assert.deepEqual(leadIn('receive', 2, early, startNs), {});
    assert.deepEqual(leadIn('receive', 0, early, startNs), {});
  });
});

describe('bytesAndCalls', () => {
  it("carries a stream's bytes and completions, not its worker-clock first byte (the end message sends that as firstT)", () => {
    assert.deepEqual(bytesAndCalls({ bytes: 12_345, completions: 7, firstNs: ms(4_990) }), { bytes: 12_345, completions: 7 });
  });
});
