/**
 * Turns the two sides' cumulative samples into per-interval numbers, one
 * interval at a time. The run recorder (the saved result) and the live report
 * (files written as the run goes) both use this, so they cannot disagree.
 *
 * Clock: every interval's `t` is on one clock, the receiving side's (the
 * controller's for bidir); when that side's sample is missing, the other
 * side's time shifted by `offset` (reference t − other t).
 */
import { isOmitted } from '../../analysis/omit-rule.js';
import type { Direction, IntervalResult, IntervalStream, Side, TcpSample } from '../../contract/result.js';
import { udpDelta, type UdpCounts } from '../../contract/udp.js';

/** The two figures of a sender's TCP reading an interval keeps (the rest stays in `streams[].send.tcp`). */
export type IntervalTcp = Pick<TcpSample, 'totalRetransSegments' | 'retransSource' | 'sndCwndBytes'>;

/** One side's cumulative counters at a tick: [stream id, bytes, completions]. */
export interface CumulativeSample {
  index: number;
  t: number;
  final: boolean;
  streams: [number, number, number][];
  /** That side's TCP readings at this tick, by stream id (only the sending ends' are used). */
  tcp?: [number, IntervalTcp][];
  /** UDP: that side's receiving streams' cumulative counts at this tick. */
  udp?: [number, UdpCounts][];
  /** The first tick only: that side read its first byte this long (s, < 0) before its clock started. */
  from?: number;
}

/** Only what an interval keeps of each reading: a sample may wait a while in the recorder, and whole readings cost memory. */
export function slimTcp(tcp: [number, TcpSample][] | undefined): [number, IntervalTcp][] | undefined {
  return tcp?.map(([id, r]) => [
    id,
    { totalRetransSegments: r.totalRetransSegments, sndCwndBytes: r.sndCwndBytes, ...(r.retransSource ? { retransSource: r.retransSource } : {}) },
  ]);
}

export interface StreamSenderPlan {
  id: number;
  sender: Side;
}

/** Whose clock the interval series uses: the side that receives (the controller for bidir). */
export function referenceSide(direction: Direction): Side {
  return direction === 'forward' ? 'responder' : 'controller';
}

export class IntervalBuilder {
  private readonly prev: Record<Side, Map<number, [number, number]>> = { controller: new Map(), responder: new Map() };
  private prevT = 0;
  private first = true;
  /** Each sending end's retransmit count at the last tick it reported one (null: that tick had none); absent: none yet, so 0 (the handshake). */
  private readonly prevRetrans = new Map<number, number | null>();
  private readonly prevUdp = new Map<number, UdpCounts>();

  /**
   * @param ref whose clock `t` is on
   * @param offset reference t − other t, for intervals the reference side did not sample (the recorder updates it as it learns it)
   * @param omitSeconds `--omit`: intervals in these first seconds come out marked `omitted` (analysis/omit-rule.ts's rule)
   */
  constructor(
    private readonly plan: readonly StreamSenderPlan[],
    readonly ref: Side,
    public offset = 0,
    private readonly omitSeconds = 0,
  ) {}

  /** The interval `index`, from whichever sides sampled it (at least one). */
  next(index: number, c: CumulativeSample | undefined, r: CumulativeSample | undefined): IntervalResult {
    const deltas: Record<Side, Map<number, [number, number]>> = {
      controller: this.delta('controller', c),
      responder: this.delta('responder', r),
    };
    const streams: IntervalStream[] = this.plan.map((p) => {
      const recvSide: Side = p.sender === 'controller' ? 'responder' : 'controller';
      const sent = deltas[p.sender].get(p.id);
      const recv = deltas[recvSide].get(p.id);
      const base: IntervalStream = { id: p.id, sentBytes: sent?.[0] ?? null, receivedBytes: recv?.[0] ?? null, receiveCompletions: recv?.[1] ?? null };
      return { ...base, ...this.tcpOf(p.id, p.sender === 'controller' ? c : r), ...this.udpOf(p.id, recvSide === 'controller' ? c : r) };
    });
    const refSample = this.ref === 'controller' ? c : r;
    const otherSample = this.ref === 'controller' ? r : c;
    const t = Math.max(this.prevT, refSample?.t ?? (otherSample ? otherSample.t + this.offset : this.prevT));
    // The first interval begins at the reference side's first byte when that came before its clock's 0
    // (the start message handled late, worker.ts leadIn): its bytes took that much longer than t.
    const from = this.first && refSample?.from !== undefined ? Math.min(this.prevT, refSample.from) : this.prevT;
    this.first = false;
    const interval: IntervalResult = {
      index,
      t,
      seconds: t - from,
      controllerT: c?.t ?? null,
      responderT: r?.t ?? null,
      streams,
      sentBytes: sumOrNull(streams.map((s) => s.sentBytes)),
      receivedBytes: sumOrNull(streams.map((s) => s.receivedBytes)),
    };
    if (isOmitted(interval, this.omitSeconds)) interval.omitted = true;
    this.prevT = t;
    return interval;
  }

  /**
   * The sender's retransmits in this interval (the difference of its cumulative count; unknown when this
   * reading or the previous one is) and its cwnd at the interval's end. Nothing when the sender sent no readings.
   */
  private tcpOf(id: number, sample: CumulativeSample | undefined): Partial<IntervalStream> {
    if (!sample?.tcp) return {};
    const reading = sample.tcp.find((e) => e[0] === id)?.[1];
    const now = reading?.totalRetransSegments ?? null;
    const before = this.prevRetrans.has(id) ? (this.prevRetrans.get(id) ?? null) : 0;
    this.prevRetrans.set(id, now);
    return {
      retransSegments: now !== null && before !== null ? Math.max(0, now - before) : null,
      ...(reading?.retransSource ? { retransSource: reading.retransSource } : {}),
      cwndBytes: reading?.sndCwndBytes ?? null,
    };
  }

  /** The receiver's UDP counts in this interval (nothing when its sample is missing or carries none). */
  private udpOf(id: number, sample: CumulativeSample | undefined): Partial<IntervalStream> {
    const now = sample?.udp?.find((e) => e[0] === id)?.[1];
    if (!now) return {};
    const before = this.prevUdp.get(id) ?? null;
    this.prevUdp.set(id, now);
    return { udp: udpDelta(now, before) };
  }

  private delta(side: Side, sample: CumulativeSample | undefined): Map<number, [number, number]> {
    const d = new Map<number, [number, number]>();
    if (!sample) return d;
    for (const [id, bytes, completions] of sample.streams) {
      const p = this.prev[side].get(id) ?? [0, 0];
      d.set(id, [bytes - p[0], completions - p[1]]);
      this.prev[side].set(id, [bytes, completions]);
    }
    return d;
  }
}

/** The sum of the known values; null when none is known. */
export function sumOrNull(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) : null;
}
