/**
 * One UDP stream's receiver accounting: sequence numbers (loss, out of order, duplicates) and
 * RFC 3550 interarrival jitter, fed one datagram at a time in arrival order.
 *
 * Loss follows iperf3 (src/iperf_udp.c): a jump past the next expected number counts the gap as
 * lost; a late arrival fills one of those and counts as out of order. Unlike iperf3, a datagram
 * seen twice is a duplicate, not out of order and not a filled gap: the numbers of the last
 * DUP_WINDOW datagrams below the highest are remembered (older ones count as out of order, as in
 * iperf3, since a window that old cannot tell).
 *
 * Jitter (RFC 3550 §6.4.1, A.8): with S the send time and R the arrival time of datagrams i and j
 * in arrival order, D = (Rj − Ri) − (Sj − Si) and J += (|D| − J) / 16. The two clocks need not
 * agree: only differences on each are used.
 */
import type { UdpCounts } from '../../../contract/udp.js';

/** How many sequence numbers below the highest are remembered to tell a duplicate from a late arrival. */
export const DUP_WINDOW = 4096;

export class UdpReceiveStats {
  private datagrams = 0;
  private bytes = 0;
  private lost = 0;
  private outOfOrder = 0;
  private duplicates = 0;
  /** Highest sequence number seen; -1 before the first. */
  private highest = -1;
  /** Bit i: sequence number (highest − i) arrived, for i < DUP_WINDOW. */
  private readonly seen = new Uint8Array(DUP_WINDOW);
  private seenBase = 0; // ring index of `highest`
  private prevTransitNs: bigint | null = null;
  private jitterNs: number | null = null;

  /**
   * One datagram: its sequence number (from 0 or 1: the first one seen starts the count, as
   * iperf3's does from 1), its sender's clock stamp and our arrival stamp (ns), its size (bytes).
   */
  add(seq: number, sentNs: bigint, arrivalNs: bigint, size: number): void {
    if (this.highest < 0) {
      // Numbers before the first one seen were never promised to this receiver: iperf3 counts from 1.
      this.highest = seq - 1;
      this.lost = Math.max(0, seq - 1);
    }
    if (seq > this.highest) {
      this.lost += seq - this.highest - 1;
      this.advance(seq);
    } else {
      const back = this.highest - seq;
      if (back < DUP_WINDOW && this.seen[(this.seenBase + back) % DUP_WINDOW]) {
        this.duplicates++;
        return; // counted once: no bytes, no jitter sample
      }
      if (back < DUP_WINDOW) this.seen[(this.seenBase + back) % DUP_WINDOW] = 1;
      this.outOfOrder++;
      if (this.lost > 0) this.lost--;
    }
    this.datagrams++;
    this.bytes += size;
    const transit = arrivalNs - sentNs;
    if (this.prevTransitNs !== null) {
      const d = Math.abs(Number(transit - this.prevTransitNs));
      this.jitterNs = this.jitterNs === null ? d / 16 : this.jitterNs + (d - this.jitterNs) / 16;
    }
    this.prevTransitNs = transit;
  }

  /** The counts so far (cumulative); an interval is the difference of two, with the later jitter. */
  counts(): UdpCounts {
    return {
      datagrams: this.datagrams,
      bytes: this.bytes,
      lost: this.lost,
      outOfOrder: this.outOfOrder,
      duplicates: this.duplicates,
      jitterMs: this.jitterNs === null ? null : this.jitterNs / 1e6,
    };
  }

  /**
   * The final counts once the sender has said the highest sequence number it sent: the ones
   * after the highest seen are lost too (a tail loss no gap shows).
   */
  final(lastSeq: number | null): UdpCounts {
    const c = this.counts();
    if (lastSeq === null) return c;
    if (this.highest < 0) return { ...c, lost: lastSeq };
    return { ...c, lost: c.lost + Math.max(0, lastSeq - this.highest) };
  }

  private advance(seq: number): void {
    const step = seq - this.highest;
    if (step >= DUP_WINDOW) {
      this.seen.fill(0);
    } else {
      // Move the ring's head back by `step`, clearing the slots that now stand for numbers never seen.
      for (let i = 1; i < step; i++) this.seen[(this.seenBase - i + DUP_WINDOW * 2) % DUP_WINDOW] = 0;
    }
    this.seenBase = (this.seenBase - step + DUP_WINDOW * 2) % DUP_WINDOW;
    this.seen[this.seenBase] = 1;
    this.highest = seq;
  }
}
