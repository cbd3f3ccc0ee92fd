/**
 * A UDP receiver's accounting against sequences whose answer is known by construction: loss,
 * out of order and duplicates as iperf3 counts them (duplicates apart), and RFC 3550 jitter
 * computed by hand.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lossShare } from '../../../../electron/contract/udp.js';
import { DUP_WINDOW, UdpReceiveStats } from '../../../../electron/engine/data-plane/udp/receive-stats.js';
import { udpDelta } from '../../../../electron/contract/udp.js';

const MS = 1_000_000n;

/** Datagrams sent every 1 ms from t = 0, arriving after `delayMs[i]` (default 5 ms), in the order given. */
function feed(order: number[], delayMs: (seq: number) => number = () => 5): UdpReceiveStats {
  const s = new UdpReceiveStats();
  for (const seq of order) {
    const sent = BigInt(seq) * MS;
    s.add(seq, sent, sent + BigInt(Math.round(delayMs(seq) * 1e6)), 1000);
  }
  return s;
}

describe('UDP receive accounting', () => {
  it('in order, constant delay: nothing lost, jitter 0', () => {
    const c = feed([1, 2, 3, 4, 5]).counts();
    assert.deepEqual(c, { datagrams: 5, bytes: 5000, lost: 0, outOfOrder: 0, duplicates: 0, jitterMs: 0 });
  });

  it('a gap is lost; a late one fills it and counts as out of order (iperf3)', () => {
    const s = feed([1, 2, 5, 6]);
    assert.equal(s.counts().lost, 2);
    s.add(3, 3n * MS, 20n * MS, 1000);
    const c = s.counts();
    assert.equal(c.lost, 1);
    assert.equal(c.outOfOrder, 1);
    assert.equal(c.datagrams, 5);
    assert.equal(lossShare(c), 1 / 6);
  });

  it('a datagram seen twice is a duplicate: not out of order, not a filled gap, no bytes', () => {
    const c = feed([1, 2, 4, 2, 4, 4]).counts();
    assert.deepEqual([c.datagrams, c.bytes, c.lost, c.outOfOrder, c.duplicates], [3, 3000, 1, 0, 3]);
  });

  it('beyond the remembered window a late number counts as out of order, as in iperf3', () => {
    const s = feed([1, 3, 3 + DUP_WINDOW + 10]);
    s.add(2, 2n * MS, BigInt(DUP_WINDOW + 20) * MS, 1000);
    assert.equal(s.counts().outOfOrder, 1);
    assert.equal(s.counts().duplicates, 0);
  });

  it('the tail: datagrams after the highest seen are lost once the sender says its last number', () => {
    const s = feed([1, 2, 3]);
    assert.equal(s.final(10).lost, 7);
    assert.equal(s.final(null).lost, 0);
    assert.equal(new UdpReceiveStats().final(4).lost, 4, 'nothing arrived: every datagram sent was lost');
  });

  it('jitter is RFC 3550 §6.4.1: J += (|D| − J) / 16 over transit differences', () => {
    // Delays 5, 7, 5, 9 ms: |D| = 2, 2, 4 ms.
    const delays = [0, 5, 7, 5, 9];
    const c = feed([1, 2, 3, 4], (seq) => delays[seq]!).counts();
    let j = 0;
    for (const d of [2, 2, 4]) j += (d - j) / 16;
    assert.ok(Math.abs(c.jitterMs! - j) < 1e-9, `${c.jitterMs} against ${j}`);
    assert.equal(new UdpReceiveStats().counts().jitterMs, null);
  });

  it("an interval is the difference of two readings, with the later reading's jitter", () => {
    const s = feed([1, 2, 3]);
    const before = s.counts();
    s.add(6, 6n * MS, 11n * MS, 1000);
    const iv = udpDelta(s.counts(), before);
    assert.deepEqual([iv.datagrams, iv.lost, iv.outOfOrder], [1, 2, 0]);
    assert.equal(iv.jitterMs, s.counts().jitterMs);
  });
});
