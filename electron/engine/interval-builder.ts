/**
 * Turns the two sides' cumulative samples into per-interval numbers, one
 * interval at a time. The run recorder (the saved result) and the live report
 * (files written as the run goes) both use this, so they cannot disagree.
 *
 * Clock: every interval's `t` is on one clock, the receiving side's (the
 * controller's for bidir); when that side's sample is missing, the other
 * side's time shifted by `offset` (reference t − other t).
 */
import type { Direction, IntervalResult, IntervalStream, Side } from '../contract/result.js';

/** One side's cumulative counters at a tick: [stream id, bytes, completions]. */
export interface CumulativeSample {
  index: number;
  t: number;
  final: boolean;
  streams: [number, number, number][];
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

  /**
   * @param ref whose clock `t` is on
   * @param offset reference t − other t, for intervals the reference side did not sample (the recorder updates it as it learns it)
   */
  constructor(
    private readonly plan: readonly StreamSenderPlan[],
    readonly ref: Side,
    public offset = 0,
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
      return { id: p.id, sentBytes: sent?.[0] ?? null, receivedBytes: recv?.[0] ?? null, receiveCompletions: recv?.[1] ?? null };
    });
    const refSample = this.ref === 'controller' ? c : r;
    const otherSample = this.ref === 'controller' ? r : c;
    const t = Math.max(this.prevT, refSample?.t ?? (otherSample ? otherSample.t + this.offset : this.prevT));
    const interval: IntervalResult = {
      index,
      t,
      seconds: t - this.prevT,
      controllerT: c?.t ?? null,
      responderT: r?.t ?? null,
      streams,
      sentBytes: sumOrNull(streams.map((s) => s.sentBytes)),
      receivedBytes: sumOrNull(streams.map((s) => s.receivedBytes)),
    };
    this.prevT = t;
    return interval;
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

/** Median of (reference t − other t) over the ordinary ticks both sides sampled; 0 if none. */
export function clockOffset(refs: ReadonlyMap<number, CumulativeSample>, others: ReadonlyMap<number, CumulativeSample>): number {
  const diffs: number[] = [];
  for (const [index, r] of refs) {
    const o = others.get(index);
    if (o && !o.final && !r.final) diffs.push(r.t - o.t);
  }
  if (diffs.length === 0) return 0;
  diffs.sort((a, b) => a - b);
  return diffs[Math.floor(diffs.length / 2)] ?? 0;
}

function sumOrNull(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) : null;
}
