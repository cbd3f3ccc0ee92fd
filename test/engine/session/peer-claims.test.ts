/**
 * The partner's claims against this side's own ends, without sockets: each bound first shown to reject a
 * claim one past it, then to keep an honest claim at it, and the figures an honest partner may give that
 * look odd but are no lie (a UDP receiver's late duplicates, an iperf3 sender's bytes under -O, an iperf3
 * UDP receiver's bytes counting duplicates).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeEnds, SampleClaims, type ClaimRules } from '../../../electron/engine/session/peer-claims.js';
import type { StreamEnd } from '../../../electron/protocol/messages.js';
import type { UdpCounts } from '../../../electron/contract/udp.js';

const TCP: ClaimRules = { own: 'controller', udp: false, iperf3Peer: false, omitSeconds: 0, datagramBytes: 131072 };
const UDP: ClaimRules = { ...TCP, udp: true, datagramBytes: 1000 };

function end(role: 'send' | 'receive', bytes: number, extra: Partial<StreamEnd> = {}): StreamEnd {
  return { id: 0, role, bytes, completions: 0, firstT: 0, lastT: 1, error: null, ...extra };
}
const sent = (datagrams: number, lastSeq = datagrams): StreamEnd => end('send', datagrams * 1000, { completions: datagrams, udp: { lastSeq } });
function arrived(c: Partial<UdpCounts>): StreamEnd {
  const counts: UdpCounts = { datagrams: 0, bytes: 0, lost: 0, outOfOrder: 0, duplicates: 0, jitterMs: null, ...c };
  return end('receive', counts.bytes, { completions: counts.datagrams, udp: { counts } });
}

describe('judgeEnds: TCP', () => {
  it('a receiver one byte past what this side sent is rejected; at it, kept', () => {
    assert.deepEqual(judgeEnds(TCP, 'controller', end('send', 1000), end('receive', 1001)), {
      side: 'responder',
      view: 'receive',
      bound: 'received <= sent',
      claimedBytes: 1001,
      ownBytes: 1000,
      in: 'end report',
    });
    assert.equal(judgeEnds(TCP, 'controller', end('send', 1000), end('receive', 1000)), null);
  });

  it('a sender claiming less than arrived here is rejected', () => {
    const c = judgeEnds(TCP, 'responder', end('send', 999), end('receive', 1000));
    assert.deepEqual(c, { side: 'responder', view: 'send', bound: 'received <= sent', claimedBytes: 999, ownBytes: 1000, in: 'end report' });
  });

  it('an iperf3 sender under -O reports fewer bytes than it sent: not judged; without -O, judged', () => {
    const iperf3 = { ...TCP, iperf3Peer: true };
    assert.equal(judgeEnds({ ...iperf3, omitSeconds: 2 }, 'responder', end('send', 500), end('receive', 1000)), null);
    assert.equal(judgeEnds(iperf3, 'responder', end('send', 500), end('receive', 1000))?.bound, 'received <= sent');
    // Its receiver's bytes leave the omitted seconds out too: never more than this side sent, -O or not.
    assert.equal(judgeEnds({ ...iperf3, omitSeconds: 2 }, 'controller', end('send', 1000), end('receive', 1001))?.bound, 'received <= sent');
  });

  it('a missing end is not judged', () => {
    assert.equal(judgeEnds(TCP, 'controller', undefined, end('receive', 1e12)), null);
  });
});

describe('judgeEnds: UDP', () => {
  it('arrived in order past the numbers this side used: arrived <= sent', () => {
    const c = judgeEnds(UDP, 'controller', sent(100), arrived({ datagrams: 101, bytes: 101_000 }));
    assert.deepEqual(c, { side: 'responder', view: 'receive', bound: 'arrived <= sent', claimedDatagrams: 101, ownDatagrams: 100, in: 'end report' });
    assert.equal(judgeEnds(UDP, 'controller', sent(100), arrived({ datagrams: 100, bytes: 100_000 })), null);
  });

  it('arrived and lost past the numbers used: arrived + lost <= sent; every number arrived or lost: kept', () => {
    assert.equal(judgeEnds(UDP, 'controller', sent(100), arrived({ datagrams: 60, bytes: 60_000, lost: 41 }))?.bound, 'arrived + lost <= sent');
    assert.equal(judgeEnds(UDP, 'controller', sent(100), arrived({ datagrams: 60, bytes: 60_000, lost: 40 })), null);
  });

  it('the last number counts, not the sends that succeeded: a refused send used a number', () => {
    assert.equal(judgeEnds(UDP, 'controller', sent(90, 100), arrived({ datagrams: 60, bytes: 60_000, lost: 40 })), null);
  });

  it('late duplicates (counted arrived and out of order) are no lie; bytes past them are', () => {
    const dup = arrived({ datagrams: 105, bytes: 105_000, outOfOrder: 5 });
    assert.equal(judgeEnds(UDP, 'controller', sent(100), dup), null);
    assert.equal(judgeEnds(UDP, 'controller', sent(100), arrived({ datagrams: 100, bytes: 105_001, outOfOrder: 5 }))?.bound, 'received <= sent');
  });

  it('a sender claiming a last number below what arrived here in order: arrived <= sent, view send', () => {
    const c = judgeEnds(UDP, 'responder', sent(50), arrived({ datagrams: 60, bytes: 60_000, outOfOrder: 2 }));
    assert.deepEqual(c, { side: 'responder', view: 'send', bound: 'arrived <= sent', claimedDatagrams: 50, ownDatagrams: 58, in: 'end report' });
    assert.equal(judgeEnds(UDP, 'responder', sent(58), arrived({ datagrams: 60, bytes: 58_000, outOfOrder: 2 })), null);
  });

  it('a sender that gave no last number (an iperf3 `packets` that is not a count) claimed none: not judged on datagrams', () => {
    const noNumber = end('send', 60_000, { completions: 0 });
    assert.equal(judgeEnds({ ...UDP, iperf3Peer: true }, 'responder', noNumber, arrived({ datagrams: 60, bytes: 60_000 })), null);
  });

  it("an iperf3 UDP receiver's bytes count duplicates: not judged; its highest number is", () => {
    const iperf3 = { ...UDP, iperf3Peer: true };
    // peerEnds: datagrams = packets − errors, lost = errors, no out-of-order count.
    assert.equal(judgeEnds(iperf3, 'controller', sent(100), arrived({ datagrams: 100, bytes: 200_000, outOfOrder: null })), null);
    assert.equal(
      judgeEnds(iperf3, 'controller', sent(100), arrived({ datagrams: 90, bytes: 90_000, lost: 11, outOfOrder: null }))?.bound,
      'arrived + lost <= sent',
    );
  });

  it("an iperf3 UDP sender's datagrams are judged under -O (its number is never reset), its bytes are not", () => {
    const iperf3 = { ...UDP, iperf3Peer: true, omitSeconds: 1 };
    assert.equal(judgeEnds(iperf3, 'responder', sent(50), arrived({ datagrams: 60, bytes: 60_000 }))?.bound, 'arrived <= sent');
    assert.equal(judgeEnds(iperf3, 'responder', end('send', 1000, { completions: 60, udp: { lastSeq: 60 } }), arrived({ datagrams: 60, bytes: 60_000 })), null);
  });
});

describe('SampleClaims', () => {
  it("the partner's largest sample is judged against this side's end, TCP and UDP", () => {
    const tcp = new SampleClaims(TCP);
    tcp.add({ streams: [[0, 500, 1]] });
    tcp.add({ streams: [[0, 1001, 2]] });
    assert.deepEqual(tcp.judge('responder', 0, end('send', 1000)), {
      side: 'responder',
      view: 'receive',
      bound: 'received <= sent',
      claimedBytes: 1001,
      ownBytes: 1000,
      in: 'interval sample',
    });
    assert.equal(tcp.judge('responder', 0, end('send', 1001)), null);
    const udp = new SampleClaims(UDP);
    const counts = (datagrams: number, lost: number): UdpCounts => ({ datagrams, bytes: datagrams * 1000, lost, outOfOrder: 0, duplicates: 0, jitterMs: null });
    udp.add({ streams: [[0, 50_000, 50]], udp: [[0, counts(50, 0)]] });
    assert.equal(udp.judge('responder', 0, sent(100)), null);
    udp.add({ streams: [[0, 90_000, 90]], udp: [[0, counts(90, 11)]] });
    assert.equal(udp.judge('responder', 0, sent(100))?.bound, 'arrived + lost <= sent');
  });
});
