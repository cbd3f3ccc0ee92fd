/**
 * The receiver's cumulative byte count the capacity estimate reads, in one of two conventions
 * (`capacity.series` in the result):
 *
 * - `receiver-segments`: the payload of the data segments that arrived, summed over the streams: Linux
 *   tcpi_data_segs_in × the largest tcpi_rcv_mss seen, each segment counted when it arrives (retransmissions and out-of-order
 *   segments too). That is what crossed the bottleneck, with no wait for a hole to fill.
 * - `receiver-in-order`: the bytes the receiving application read. After a loss they wait for the
 *   retransmission and then arrive at once, so slices swing far above and below the path's rate.
 *
 * The first holds while every sample gives it for every stream; a sample without it (an OS that does not
 * count segments, a stream without a reading) ends it for the run, and the second is the series from then on.
 * It also holds only where the segments are a network's full packets (segments × MSS is then the payload):
 * a bulk sender's on a network path are. Segments over a hop on this PC (loopback, and so Longhaul's own
 * link emulator, whose proxy hands the bytes on over loopback) are sends of any size: through the emulator
 * segments × MSS read 1.26-2.47 × the emulated rate. So it does not hold where the caller says the receiver
 * sits behind the emulator (`networkHop` false), nor where the MSS is larger than a network's frames carry
 * (MAX_NETWORK_MSS: loopback's is 65,483 B). And `segmentsFull()` must tell: the in-order bytes never
 * exceed segments × MSS, and equal them less the duplicates whenever no hole is open, so the highest share
 * seen is near 1 with full segments.
 * Pure: fed the receiver's samples in order.
 */
import type { TcpSample } from '../contract/tcp-reading.js';

/** One receiver sample as the estimate needs it: tick index, per stream [id, bytes read, …], TCP readings per stream. */
export interface ReceiverSample {
  index: number;
  streams: [number, number, ...number[]][];
  tcp?: [number, TcpSample][];
}

/** The sample's bytes in each convention; `segments` null when this sample does not give it (see the header). */
interface Arrivals {
  inOrder: number;
  segments: number | null;
}

/** Full segments: at some sample the in-order bytes reached this share of segments × MSS (the rest: duplicates, a hole). */
const FULL_SHARE = 0.8;
/** Segments the full-share test waits for before it counts a sample (the first few carry the handshake's MSS guess). */
const FULL_FROM_SEGMENTS = 100;
/** The largest MSS a network's frames carry: jumbo frames of 9,216 B less 40 B of IP and TCP headers. */
const MAX_NETWORK_MSS = 9176;

export class ArrivalSeries {
  private counting: boolean;

  /** `networkHop`: false where the receiver's connection is a hop on this PC (the tuned run goes through Longhaul's link emulator). */
  constructor(networkHop: boolean) {
    this.counting = networkHop;
  }

  private readonly lastSegs = new Map<number, number>();
  /** Per stream, the largest MSS the receiver has seen: tcpi_rcv_mss follows a short segment down, the peer's MSS does not. */
  private readonly mss = new Map<number, number>();
  private segmentBytes = 0;
  /** The highest in-order bytes ÷ segments × MSS seen (from FULL_FROM_SEGMENTS on); null before. */
  private bestShare: number | null = null;

  /** Whether the segments' series has held so far. */
  get segmentsHold(): boolean {
    return this.counting;
  }

  /** Whether the segments have shown they are full (see the header); false until enough arrived. */
  segmentsFull(): boolean {
    return this.bestShare !== null && this.bestShare >= FULL_SHARE;
  }

  /** The segments are not the payload (not full): the in-order bytes are the series from now on. */
  endSegments(): void {
    this.counting = false;
  }

  add(s: ReceiverSample): Arrivals {
    const inOrder = s.streams.reduce((sum, [, b]) => sum + b, 0);
    if (!this.counting) return { inOrder, segments: null };
    const readings = new Map(s.tcp ?? []);
    let added = 0;
    let segsNow = 0;
    const next = new Map<number, [number, number]>();
    for (const [id] of s.streams) {
      const r = readings.get(id);
      const segs = r?.dataSegsIn;
      const mss = r?.rcvMssBytes;
      // A reading repeated from an earlier tick (the socket did not answer this one) says nothing new: skip the sample.
      if (r && r.index < s.index) return { inOrder, segments: null };
      if (segs === undefined || segs === null || mss === undefined || mss === null || !(mss > 0) || mss > MAX_NETWORK_MSS) {
        this.counting = false;
        return { inOrder, segments: null };
      }
      // Each new segment at the largest MSS seen so far (it rises in the first round trips).
      const full = Math.max(mss, this.mss.get(id) ?? 0);
      added += Math.max(0, segs - (this.lastSegs.get(id) ?? 0)) * full;
      next.set(id, [segs, full]);
      segsNow += segs;
    }
    for (const [id, [segs, full]] of next) {
      this.lastSegs.set(id, segs);
      this.mss.set(id, full);
    }
    this.segmentBytes += added;
    if (segsNow >= FULL_FROM_SEGMENTS && this.segmentBytes > 0) this.bestShare = Math.max(this.bestShare ?? 0, inOrder / this.segmentBytes);
    return { inOrder, segments: this.segmentBytes };
  }
}
