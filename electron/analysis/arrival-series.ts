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
export interface Arrivals {
  inOrder: number;
  segments: number | null;
}

export class ArrivalSeries {
  private counting = true;
  private readonly lastSegs = new Map<number, number>();
  /** Per stream, the largest MSS the receiver has seen: tcpi_rcv_mss follows a short segment down, the peer's MSS does not. */
  private readonly mss = new Map<number, number>();
  private segmentBytes = 0;

  /** Whether the segments' series has held so far. */
  get segmentsHold(): boolean {
    return this.counting;
  }

  add(s: ReceiverSample): Arrivals {
    const inOrder = s.streams.reduce((sum, [, b]) => sum + b, 0);
    if (!this.counting) return { inOrder, segments: null };
    const readings = new Map(s.tcp ?? []);
    let added = 0;
    const next = new Map<number, [number, number]>();
    for (const [id] of s.streams) {
      const r = readings.get(id);
      const segs = r?.dataSegsIn;
      const mss = r?.rcvMssBytes;
      // A reading repeated from an earlier tick (the socket did not answer this one) says nothing new: skip the sample.
      if (r && r.index < s.index) return { inOrder, segments: null };
      if (segs === undefined || segs === null || mss === undefined || mss === null || !(mss > 0)) {
        this.counting = false;
        return { inOrder, segments: null };
      }
      // Each new segment at the largest MSS seen so far (it rises in the first round trips).
      const full = Math.max(mss, this.mss.get(id) ?? 0);
      added += Math.max(0, segs - (this.lastSegs.get(id) ?? 0)) * full;
      next.set(id, [segs, full]);
    }
    for (const [id, [segs, full]] of next) {
      this.lastSegs.set(id, segs);
      this.mss.set(id, full);
    }
    this.segmentBytes += added;
    return { inOrder, segments: this.segmentBytes };
  }
}
