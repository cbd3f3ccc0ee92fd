/**
 * Turns the cumulative per-side samples a run emits (`ControllerRun`'s
 * `sample` events) into per-interval numbers with both ends' views, the same
 * way the run recorder builds `result.intervals`: an interval is ready once
 * both sides have reported it. Final samples are left to the result (the run
 * recorder trims the empty sliver they often make), so live output and the
 * saved result agree.
 */
import type { Direction, IntervalResult, Side } from '../contract/result.js';
import { IntervalBuilder, referenceSide, type CumulativeSample, type StreamSenderPlan } from '../engine/data-plane/interval-builder.js';
import { MAX_LAG_TICKS } from '../engine/session/run-recorder.js';

export class IntervalAssembler {
  private readonly pending: Record<Side, Map<number, CumulativeSample>> = { controller: new Map(), responder: new Map() };
  private readonly lastIndex: Record<Side, number> = { controller: 0, responder: 0 };
  private readonly builder: IntervalBuilder;
  private next = 1;

  constructor(plan: readonly StreamSenderPlan[], direction: Direction, omitSeconds = 0) {
    this.builder = new IntervalBuilder(plan, referenceSide(direction), 0, omitSeconds);
  }

  /** Index of the last interval emitted (0 before the first). */
  get emittedIndex(): number {
    return this.next - 1;
  }

  /** Feed one sample; returns the intervals it completed, in order. */
  add(sample: CumulativeSample, side: Side): IntervalResult[] {
    if (sample.index <= this.lastIndex[side]) return []; // duplicates or stragglers, as the recorder does
    this.lastIndex[side] = sample.index;
    this.pending[side].set(sample.index, sample);
    // A side far behind (or gone): stop holding the other's samples; the result has those intervals at the end.
    const mine = this.pending[side];
    const oldest = mine.keys().next();
    if (mine.size > MAX_LAG_TICKS && !oldest.done) mine.delete(oldest.value);
    const out: IntervalResult[] = [];
    for (;;) {
      const c = this.pending.controller.get(this.next);
      const r = this.pending.responder.get(this.next);
      if (!c || !r || c.final || r.final) return out;
      this.pending.controller.delete(this.next);
      this.pending.responder.delete(this.next);
      out.push(this.builder.next(this.next, c, r));
      this.next++;
    }
  }
}
