/**
 * A UDP stream's figures in the result: numbers 1…lastSeq each arrived or were lost, so the tail
 * the receiver never saw (after its highest number) is loss too, counted from the sender's last
 * number; the receiving socket's drops are among the lost, never more; a direction sums its streams.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamResult } from '../../../electron/contract/result.js';
import type { UdpCounts, UdpStreamResult } from '../../../electron/contract/udp.js';
import type { SideSample } from '../../../electron/engine/data-plane/data-plane.js';
import { udpStreamResult, udpTotal } from '../../../electron/engine/session/udp-results.js';
import type { StreamEnd } from '../../../electron/protocol/messages.js';

/** The receiver saw 940 datagrams, its highest number 950: 10 gaps below it. */
const counts: UdpCounts = { datagrams: 940, bytes: 940 * 1460, lost: 10, outOfOrder: 2, duplicates: 1, jitterMs: 0.25 };

function end(id: number, role: 'send' | 'receive', udp: StreamEnd['udp'], completions = 0): StreamEnd {
  return { id, role, bytes: 0, completions, firstT: 0, lastT: 1, error: null, udp };
}

/** The sender numbered 1…1000 and handed 1000 datagrams to its OS. */
const sent = end(3, 'send', { lastSeq: 1000, shortBytes: 2920, sendErrors: 0 }, 1000);
const received = (socketDrops?: number): StreamEnd => end(3, 'receive', { counts, ...(socketDrops === undefined ? {} : { socketDrops }) });

function sample(udp: [number, UdpCounts][]): SideSample {
  return { index: 4, t: 1, final: false, streams: [], udp };
}

describe('udpStreamResult', () => {
  it('counts the tail the receiver never saw as lost: lastSeq − arrived, here 1000 − 940 = 60, not the 10 gaps it counted', () => {
    assert.deepEqual(udpStreamResult([sent], [received(25)], undefined, 3), {
      udp: { ...counts, lost: 60, lastSeq: 1000, sentDatagrams: 1000, shortBytes: 2920, sendErrors: 0, receiverDrops: 25 },
    });
  });

  it("never counts less loss than the receiver did (a last number below what it saw is the sender's to explain, not a gain)", () => {
    const early = end(3, 'send', { lastSeq: 945 }, 945);
    assert.equal(udpStreamResult([early], [received()], undefined, 3).udp?.lost, 10);
  });

  it("the receiving socket's drops are among the lost, never more than them", () => {
    assert.equal(udpStreamResult([sent], [received(60)], undefined, 3).udp?.receiverDrops, 60);
    assert.equal(udpStreamResult([sent], [received(500)], undefined, 3).udp?.receiverDrops, 60, 'capped at the tail-counted loss');
    assert.equal(udpStreamResult(null, [received(500)], undefined, 3).udp?.receiverDrops, 10, 'no sender end: capped at what the receiver counted');
    assert.equal(udpStreamResult([sent], [received(0)], undefined, 3).udp?.receiverDrops, 0);
    assert.equal(udpStreamResult([sent], [received()], undefined, 3).udp?.receiverDrops, null, 'the OS did not say: unknown, not 0');
  });

  it("without the sender's end the tail is not counted and the sender's figures are unknown", () => {
    const expected: UdpStreamResult = { ...counts, lastSeq: null, sentDatagrams: null, shortBytes: null, sendErrors: null, receiverDrops: null };
    assert.deepEqual(udpStreamResult(null, [received()], undefined, 3), { udp: expected });
    assert.deepEqual(udpStreamResult([end(3, 'send', {}, 1000)], [received()], undefined, 3), {
      udp: { ...expected, sentDatagrams: 1000 },
    });
  });

  it("without the receiver's end, its latest sample's counts for this stream stand in (drops unknown)", () => {
    const other: UdpCounts = { ...counts, datagrams: 5, lost: 0 };
    const latest = sample([
      [2, other],
      [3, counts],
    ]);
    assert.deepEqual(udpStreamResult([sent], null, latest, 3).udp, {
      ...counts,
      lost: 60,
      lastSeq: 1000,
      sentDatagrams: 1000,
      shortBytes: 2920,
      sendErrors: 0,
      receiverDrops: null,
    });
    assert.equal(udpStreamResult([sent], [received()], sample([[3, other]]), 3).udp?.datagrams, 940, 'the end, when there, wins over a sample');
  });

  it('reads only this stream and the right role of each end', () => {
    const wrong = [end(3, 'receive', { lastSeq: 1 }), end(4, 'send', { lastSeq: 2 }, 2)];
    assert.equal(udpStreamResult(wrong, [received()], undefined, 3).udp?.lastSeq, null);
    assert.deepEqual(udpStreamResult([sent], [end(3, 'send', { counts })], undefined, 3), {}, "a sending end's counts are not the receiver's");
    assert.deepEqual(udpStreamResult([sent], [received()], undefined, 4), {});
  });

  it('is nothing for TCP, or when the receiver reported no counts: what arrived is unknown', () => {
    assert.deepEqual(udpStreamResult([end(3, 'send', undefined, 10)], [end(3, 'receive', undefined)], sample([]), 3), {});
    assert.deepEqual(udpStreamResult([sent], null, undefined, 3), {});
    assert.deepEqual(udpStreamResult([sent], [end(3, 'receive', { socketDrops: 4 })], undefined, 3), {});
  });
});

describe('udpTotal', () => {
  const stream = (id: number, udp?: UdpStreamResult): StreamResult => ({
    id,
    sender: 'controller',
    bytes: 0,
    seconds: 1,
    completions: 0,
    bitsPerSecond: null,
    send: null,
    receive: null,
    ...(udp ? { udp } : {}),
  });
  const a: UdpStreamResult = { ...counts, lost: 60, lastSeq: 1000, sentDatagrams: 1000, shortBytes: 0, sendErrors: 0, receiverDrops: 25 };
  const b: UdpStreamResult = { ...a, datagrams: 100, bytes: 146_000, lost: 0, outOfOrder: null, duplicates: 0, jitterMs: 0.75, receiverDrops: 0 };

  it("sums the streams' counts and their drops when every stream's are known", () => {
    assert.deepEqual(udpTotal([stream(1, a), stream(2, b)]), {
      udp: { datagrams: 1040, bytes: 1040 * 1460, lost: 60, outOfOrder: null, duplicates: 1, jitterMs: 0.5, receiverDrops: 25 },
    });
  });

  it("the drops are unknown when any stream's are", () => {
    for (const unknown of [null, undefined]) {
      const c: UdpStreamResult = { ...b, receiverDrops: unknown };
      assert.equal(udpTotal([stream(1, a), stream(2, c)]).udp?.receiverDrops, null, String(unknown));
    }
  });

  it('leaves out streams without UDP figures, and is nothing for TCP', () => {
    assert.deepEqual(udpTotal([stream(1, a), stream(2)]).udp?.datagrams, 940);
    assert.deepEqual(udpTotal([stream(1), stream(2)]), {});
    assert.deepEqual(udpTotal([]), {});
  });
});
