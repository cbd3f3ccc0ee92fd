/**
 * Running totals over the intervals seen so far, kept incrementally so the
 * provisional summary a live report rewrites after every interval costs the
 * same at interval 10 as at interval 800,000 (a day at 0.1 s).
 */
import type { IntervalResult } from '../contract/result.js';
import type { PetaBumpsInput } from './petabumps-table.js';

interface StreamSpan {
  bytes: number;
  /** Interval boundaries around the first and last interval that brought bytes. */
  start: number | null;
  end: number | null;
}

export class IntervalTotals {
  private readonly spans = new Map<number, StreamSpan>();
  private completions = 0;
  sentBytes = 0;
  receivedBytes = 0;
  /** The last interval added, or null. */
  last: IntervalResult | null = null;

  add(iv: IntervalResult): void {
    for (const s of iv.streams) {
      const e = this.spans.get(s.id) ?? { bytes: 0, start: null, end: null };
      if (s.receivedBytes) {
        e.bytes += s.receivedBytes;
        e.start ??= iv.t - iv.seconds;
        e.end = iv.t;
      }
      this.completions += s.receiveCompletions ?? 0;
      this.spans.set(s.id, e);
    }
    this.sentBytes += iv.sentBytes ?? 0;
    this.receivedBytes += iv.receivedBytes ?? 0;
    this.last = iv;
  }

  /** The PetaBumps numbers as far as the intervals tell: realtimes are interval boundaries. */
  petaBumpsInput(): PetaBumpsInput {
    const all = [...this.spans.entries()].sort((a, b) => a[0] - b[0]);
    const starts = all.map(([, e]) => e.start).filter((v): v is number => v !== null);
    const ends = all.map(([, e]) => e.end).filter((v): v is number => v !== null);
    return {
      threads: all.map(([id, e]) => ({ id, bytes: e.bytes, seconds: e.start !== null && e.end !== null ? e.end - e.start : null })),
      totalBytes: all.reduce((a, [, e]) => a + e.bytes, 0),
      totalSeconds: starts.length ? Math.max(...ends) - Math.min(...starts) : null,
      completions: this.completions,
    };
  }

  static of(intervals: IntervalResult[]): IntervalTotals {
    const t = new IntervalTotals();
    for (const iv of intervals) t.add(iv);
    return t;
  }
}
