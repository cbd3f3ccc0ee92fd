/**
 * The bounds a partner's figures must keep, set by what this side measured itself (docs/results.md,
 * "A partner's claims"). Only what physics rules out is rejected, never what merely looks unlikely:
 *
 * - a receiver cannot read more bytes than the sender handed to its OS (TCP; UDP with the slack below);
 * - a UDP receiver's datagrams that arrived in order (each one raised the highest sequence number it saw)
 *   and the ones it counts lost (gaps below that number) are at most the numbers the sender used;
 * - a sender cannot have sent fewer than the receiver read: the mirror of both.
 *
 * An iperf3 partner follows iperf3's counting (docs/iperf3.md, "What an iperf3 partner's results are
 * checked against"): its byte counts leave out the seconds -O omits, so a byte count it claims to have
 * SENT is judged only without -O; its UDP receiver counts every datagram read (duplicates too), so its
 * received bytes are not judged on UDP, while its highest sequence number is.
 */
import type { PeerClaim, Side } from '../../contract/result.js';
import type { UdpCounts } from '../../contract/udp.js';
import type { StreamEnd } from '../../protocol/messages.js';
import type { SideSample } from '../data-plane/data-plane.js';

/** What the judge needs to know about the run. */
export interface ClaimRules {
  /** The side writing this result: its own figures are the truth. */
  own: Side;
  udp: boolean;
  /** The partner is iperf3 (its counting: see the file's comment). */
  iperf3Peer: boolean;
  /** The run's -O, seconds (0: none). */
  omitSeconds: number;
  /** UDP: the largest datagram the sender writes (-l), bytes: the most one uncounted duplicate can add. */
  datagramBytes: number;
}

/**
 * A UDP receiver's datagrams that arrived in order. Longhaul's receiver remembers the last
 * DUP_WINDOW numbers only, so a duplicate older than that counts as arrived, and as out of order
 * (receive-stats.ts): the arrivals beyond the numbers sent are at most the out-of-order ones.
 * iperf3's receivers say no out-of-order count (null): their arrivals are the highest number less the lost.
 */
function inOrder(c: UdpCounts): number {
  return Math.max(0, c.datagrams - (c.outOfOrder ?? 0));
}

/** The bytes an honest receiver may count beyond the sender's: its late duplicates, each at most one datagram. */
function duplicateSlack(c: UdpCounts | undefined, rules: ClaimRules): number {
  return (c?.outOfOrder ?? 0) * rules.datagramBytes;
}

/** The sequence numbers a UDP sender used: every datagram on the wire carries one of 1…lastSeq (the datagrams sent, when it gave no number). */
function numbersUsed(send: StreamEnd): number {
  return Math.max(send.udp?.lastSeq ?? 0, send.completions);
}

/**
 * The partner's end-of-run figures for one stream, judged against this side's own end report; null when
 * every bound holds. `sender` wrote the stream's bytes. Both ends' reports are needed: a count from a
 * side's last sample may be older than the other's, which is not a lie.
 */
export function judgeEnds(rules: ClaimRules, sender: Side, send: StreamEnd | undefined, receive: StreamEnd | undefined): PeerClaim | null {
  if (!send || !receive) return null;
  const at = { in: 'end report' as const };
  if (sender === rules.own) {
    const peer: Side = sender === 'controller' ? 'responder' : 'controller';
    const c = rules.udp ? receive.udp?.counts : undefined;
    const n = numbersUsed(send);
    // Each in-order arrival raised the highest number seen, which is at most the last number this side used.
    if (c && inOrder(c) > n) return { side: peer, view: 'receive', bound: 'arrived <= sent', claimedDatagrams: c.datagrams, ownDatagrams: n, ...at };
    // Below the highest number seen, each number arrived in order or is a gap still counted lost (a late arrival fills one).
    if (c && inOrder(c) + c.lost > n)
      return { side: peer, view: 'receive', bound: 'arrived + lost <= sent', claimedDatagrams: c.datagrams + c.lost, ownDatagrams: n, ...at };
    // iperf3's UDP receiver counts every datagram's bytes, duplicates included: no byte bound holds for it.
    if (rules.udp && rules.iperf3Peer) return null;
    if (receive.bytes - duplicateSlack(c, rules) > send.bytes)
      return { side: peer, view: 'receive', bound: 'received <= sent', claimedBytes: receive.bytes, ownBytes: send.bytes, ...at };
    return null;
  }
  const c = rules.udp ? receive.udp?.counts : undefined;
  // The partner sent: what arrived here in order carried numbers it used, up to its last. No last number
  // (an iperf3 `packets` that is not a count): it claimed none, and nothing is judged.
  const claimedNumbers = send.udp?.lastSeq;
  if (c && claimedNumbers !== undefined && inOrder(c) > claimedNumbers)
    return { side: sender, view: 'send', bound: 'arrived <= sent', claimedDatagrams: claimedNumbers, ownDatagrams: inOrder(c), ...at };
  // iperf3's sender leaves the omitted seconds out of its bytes (bytes_sent − bytes_sent_omit): with -O, fewer than arrived is honest.
  if (rules.iperf3Peer && rules.omitSeconds > 0) return null;
  if (receive.bytes - duplicateSlack(c, rules) > send.bytes)
    return { side: sender, view: 'send', bound: 'received <= sent', claimedBytes: send.bytes, ownBytes: receive.bytes, ...at };
  return null;
}

/**
 * The partner's per-interval samples as receiver: the most any of them claimed per stream, kept as they
 * arrive (a run's samples are not kept whole), to judge against this side's end report.
 */
export class SampleClaims {
  /** Per stream: the sample whose claimed byte count less a UDP receiver's duplicate slack was the largest. */
  private readonly bytes = new Map<number, { judged: number; claimed: number }>();
  /** Per UDP stream: the largest claimed in-order arrivals + lost, and the arrivals of that sample. */
  private readonly numbers = new Map<number, { inOrderAndLost: number; datagrams: number; lost: number }>();

  constructor(private readonly rules: ClaimRules) {}

  /** One sample of the partner's (cumulative counts). */
  add(s: Pick<SideSample, 'streams' | 'udp'>): void {
    const udp = new Map(s.udp ?? []);
    for (const [id, claimed] of s.streams) {
      const c = udp.get(id);
      const judged = claimed - duplicateSlack(c, this.rules);
      if (judged > (this.bytes.get(id)?.judged ?? -Infinity)) this.bytes.set(id, { judged, claimed });
      if (!c) continue;
      const n = inOrder(c) + c.lost;
      if (n > (this.numbers.get(id)?.inOrderAndLost ?? -1)) this.numbers.set(id, { inOrderAndLost: n, datagrams: c.datagrams, lost: c.lost });
    }
  }

  /** The bound a sample of stream `id` broke against this side's end report `send` (this side sent it), or null. */
  judge(peer: Side, id: number, send: StreamEnd | undefined): PeerClaim | null {
    if (!send) return null;
    const at = { in: 'interval sample' as const };
    const u = this.numbers.get(id);
    const n = numbersUsed(send);
    if (this.rules.udp && u && u.inOrderAndLost > n)
      return { side: peer, view: 'receive', bound: 'arrived + lost <= sent', claimedDatagrams: u.datagrams + u.lost, ownDatagrams: n, ...at };
    const b = this.bytes.get(id);
    if (!b || b.judged <= send.bytes || (this.rules.udp && this.rules.iperf3Peer)) return null;
    return { side: peer, view: 'receive', bound: 'received <= sent', claimedBytes: b.claimed, ownBytes: send.bytes, ...at };
  }
}
