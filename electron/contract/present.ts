/**
 * A checked "this is there" for values the code has bounded but the type
 * system cannot see (an index below a length checked elsewhere, a field set by
 * an earlier state). Where `!` would let an `undefined` flow on as NaN or a
 * crash far away, this stops at the cause, naming what was missing.
 * Prefer a narrower type or a different shape; use this where neither fits.
 */
export function present<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`internal error: ${what} is missing`);
  return value;
}

/** `items[i]`, checked: for indexes the caller has already bounded. */
export function itemAt<T>(items: ArrayLike<T>, i: number, what = 'item'): T {
  const v = items[i];
  if (v === undefined) throw new Error(`internal error: no ${what} at index ${i} of ${items.length}`);
  return v;
}
