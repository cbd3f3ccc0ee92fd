/**
 * A series indexed by sample tick that stays bounded however long the run:
 * the first ticks as they came (the head), the last few as they came (the
 * recent window), and between them groups of `ticks` consecutive ticks, each
 * merged into one entry. When the groups pass their bound, `ticks` doubles
 * and neighbouring groups merge, so the middle keeps the whole run at a
 * coarser step. Group boundaries are tick numbers (group g after the head
 * covers ticks (head + (g−1)·ticks, head + g·ticks]), so every series sharing
 * one `Grouping` (a run's intervals and each stream end's TCP_INFO readings)
 * is thinned alike. The rule and its numbers are in detail-rule.ts.
 */

import type { Grouping } from '../../analysis/detail-rule.js';

export type { Grouping };

interface Group<T> {
  group: number;
  value: T;
}

export class ThinnedSeries<T> {
  private readonly head: T[] = [];
  private tail: Group<T>[] = [];
  private recent: { index: number; value: T }[] = [];
  private ticks = 1;

  /** `merge(earlier, later)` makes one entry of two neighbours. */
  constructor(
    private readonly grouping: Grouping,
    private readonly merge: (earlier: T, later: T) => T,
  ) {}

  add(index: number, value: T): void {
    if (index <= this.grouping.headIndex) {
      this.head.push(value);
      return;
    }
    this.recent.push({ index, value });
    // Spliced in batches: shifting one entry at a time would copy the window at every tick.
    if (this.recent.length >= 2 * this.grouping.recent) {
      const out = this.recent.splice(0, this.recent.length - this.grouping.recent);
      for (const e of out) this.toGroups(e.index, e.value);
    }
  }

  /** Merged groups between the head and the recent window. */
  get groupCount(): number {
    this.regroup();
    return this.tail.length;
  }

  /** The last entry added, or undefined. */
  get last(): T | undefined {
    return this.recent.at(-1)?.value ?? this.tail.at(-1)?.value ?? this.head.at(-1);
  }

  /** Drop the last entry (the recorder's empty closing sliver). */
  dropLast(): void {
    if (this.recent.length) this.recent.pop();
    else if (this.tail.length) this.tail.pop();
    else this.head.pop();
  }

  get length(): number {
    return this.head.length + this.tail.length + this.recent.length;
  }

  /** The tick of the first entry `values()` returns as it came after the merged groups, or null. */
  get recentFromIndex(): number | null {
    const recent = this.recent.slice(Math.max(0, this.recent.length - this.grouping.recent));
    return recent[0]?.index ?? null;
  }

  /** Every entry, in tick order. */
  values(): T[] {
    this.regroup();
    const recent = this.recent.slice(Math.max(0, this.recent.length - this.grouping.recent));
    const merged = this.recent.slice(0, this.recent.length - recent.length);
    const tail = [...this.tail];
    for (const e of merged) this.addTo(tail, e.index, e.value);
    return [...this.head, ...tail.map((g) => g.value), ...recent.map((e) => e.value)];
  }

  private toGroups(index: number, value: T): void {
    this.regroup();
    this.addTo(this.tail, index, value);
  }

  private addTo(tail: Group<T>[], index: number, value: T): void {
    const group = Math.ceil((index - this.grouping.headIndex) / this.ticks);
    const last = tail.at(-1);
    if (last && last.group === group) tail[tail.length - 1] = { group, value: this.merge(last.value, value) };
    else tail.push({ group, value });
  }

  /** Catch up with the shared group size: merge neighbours until groups are `grouping.ticks` long. */
  private regroup(): void {
    while (this.ticks < this.grouping.ticks) {
      const merged: Group<T>[] = [];
      for (const g of this.tail) {
        const group = Math.ceil(g.group / 2);
        const last = merged.at(-1);
        if (last && last.group === group) last.value = this.merge(last.value, g.value);
        else merged.push({ group, value: g.value });
      }
      this.tail = merged;
      this.ticks *= 2;
    }
  }
}
