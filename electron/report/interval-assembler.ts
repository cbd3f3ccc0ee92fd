/**
 * Turns the cumulative per-side samples a run emits (`ControllerRun`'s
 * `sample` events) into per-interval numbers with both ends' views, the same
 * way the run recorder builds `result.intervals`: an interval is ready once
 * both sides have reported it. Final samples are left to the result (the run
 * recorder trims the empty sliver they often make), so live output and the
 * saved result agree.
 */
import type { IntervalResult, IntervalStream, Side } from '../contract/result.js';

/** One side's cumulative counters at an interval tick: [stream id, bytes, completions]. */
export interface CumulativeSample {
  index: number;
  t: number;
  final: boolean;
  streams: [number, number, number][];
}

/** Which end sends each stream. */
export interface StreamSenderPlan {
  id: number;
  sender: Side;
}

export class IntervalAssembler {
  private readonly pending: Record<Side, Map<number, CumulativeSample>> = { controller: new Map(), responder: new Map() };
  private readonly prev: Record<Side, Map<number, [number, number]>> = { controller: new Map(), responder: new Map() };
  private readonly lastIndex: Record<Side, number> = { controller: 0, responder: 0 };
  private next = 1;
  private prevT = 0;

  constructor(private readonly plan: readonly StreamSenderPlan[]) {}

  /** Index of the last interval emitted (0 before the first). */
  get emittedIndex(): number {
    return this.next - 1;
  }

  /** Feed one sample; returns the intervals it completed, in order. */
  add(sample: CumulativeSample, side: Side): IntervalResult[] {
    if (sample.index <= this.lastIndex[side]) return []; // duplicates or stragglers, as the recorder does
    this.lastIndex[side] = sample.index;
    this.pending[side].set(sample.index, sample);
    const out: IntervalResult[] = [];
    for (;;) {
      const c = this.pending.controller.get(this.next);
      const r = this.pending.responder.get(this.next);
      if (!c || !r || c.final || r.final) return out;
      this.pending.controller.delete(this.next);
      this.pending.responder.delete(this.next);
      out.push(this.build(this.next, c, r));
      this.next++;
    }
  }

  private delta(side: Side, sample: CumulativeSample): Map<number, [number, number]> {
    const d = new Map<number, [number, number]>();
    for (const [id, bytes, completions] of sample.streams) {
      const p = this.prev[side].get(id) ?? [0, 0];
      d.set(id, [bytes - p[0], completions - p[1]]);
      this.prev[side].set(id, [bytes, completions]);
    }
    return d;
  }

  private build(index: number, c: CumulativeSample, r: CumulativeSample): IntervalResult {
    const deltas: Record<Side, Map<number, [number, number]>> = { controller: this.delta('controller', c), responder: this.delta('responder', r) };
    const streams: IntervalStream[] = this.plan.map((p) => {
      const recvSide: Side = p.sender === 'controller' ? 'responder' : 'controller';
      const sent = deltas[p.sender].get(p.id);
      const recv = deltas[recvSide].get(p.id);
      return { id: p.id, sentBytes: sent?.[0] ?? null, receivedBytes: recv?.[0] ?? null, receiveCompletions: recv?.[1] ?? null };
    });
    const t = c.t;
    const iv: IntervalResult = {
      index, t, seconds: Math.max(0, t - this.prevT), controllerT: c.t, responderT: r.t, streams,
      sentBytes: sumOrNull(streams.map((s) => s.sentBytes)),
      receivedBytes: sumOrNull(streams.map((s) => s.receivedBytes)),
    };
    this.prevT = t;
    return iv;
  }
}

function sumOrNull(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) : null;
}
