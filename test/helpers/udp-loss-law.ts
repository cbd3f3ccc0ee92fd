/**
 * How Longhaul's UDP loss and iperf3's must relate, by who counted (docs/iperf3.md, issue 41). One copy for every
 * interop test, because "the same loss within 0.2 points" was timing, not a law: iperf3's receiver calls the highest
 * number it saw `packets` and the gaps below it `lost_packets` (iperf_udp.c), so it cannot see a lost tail, such as a
 * datagram still in flight when its test ended; Longhaul counts that tail from the sender's own last number. How long
 * the tail is depends on when each end heard the test end, which a busy PC stretches, so no bound on it is physics.
 */
import assert from 'node:assert/strict';

/** Longhaul's counts of one direction: in order arrivals, lost, and the last sequence number the sender used. */
interface LonghaulUdpCounts {
  datagrams: number;
  lost: number;
  lastSeq: number;
}

/** iperf3's receiver line of the same direction (-J `sum_received`, or its streams summed). */
interface Iperf3UdpCounts {
  packets: number;
  lost_packets: number;
  lost_percent: number;
}

/**
 * `counter: 'longhaul'`: Longhaul received and told iperf3 its figures in the results exchange, so iperf3 prints them
 * exactly. `counter: 'iperf3'`: Longhaul sent and iperf3 counted; the arrived are iperf3's, and Longhaul's lost are
 * iperf3's and the tail it could not see. Either way every number the sender used is accounted for.
 */
export function assertUdpLossLaw(label: string, mine: LonghaulUdpCounts, theirs: Iperf3UdpCounts, counter: 'longhaul' | 'iperf3'): void {
  assert.equal(mine.datagrams + mine.lost, mine.lastSeq, `${label}: arrived + lost is every number the sender used (${JSON.stringify(mine)})`);
  if (counter === 'longhaul') {
    assert.equal(theirs.packets, mine.datagrams + mine.lost, `${label}: iperf3 prints the datagrams Longhaul counted (${JSON.stringify(theirs)})`);
    assert.equal(theirs.lost_packets, mine.lost, `${label}: iperf3 prints the loss Longhaul counted (${JSON.stringify(theirs)})`);
    return;
  }
  const tail = mine.lastSeq - theirs.packets;
  assert.ok(tail >= 0, `${label}: iperf3 saw no number the sender did not use (${theirs.packets} of ${mine.lastSeq})`);
  assert.equal(mine.datagrams, theirs.packets - theirs.lost_packets, `${label}: arrived as iperf3 counted them (${JSON.stringify(theirs)})`);
  assert.equal(mine.lost, theirs.lost_packets + tail, `${label}: Longhaul's lost are iperf3's and the tail of ${tail} it could not see`);
}
