/**
 * `-O, --omit` in words, one sentence for the CLI summary, the console log and the Results screen:
 * which seconds were left out of the totals and the verdict, and which intervals they were.
 */
import type { LonghaulResult } from './result.js';

/** `Omitted (--omit 1 s): interval 1 (to 1.03 s) is shown but left out of the totals and the verdict`, or null without --omit. */
export function omitText(r: Pick<LonghaulResult, 'params' | 'intervals'>): string | null {
  const s = r.params.omitSeconds;
  if (!s) return null;
  const omitted = r.intervals.filter((iv) => iv.omitted);
  const last = omitted[omitted.length - 1];
  if (!last) return `Omitted (--omit ${s} s): no interval ended inside the omitted seconds, so nothing was left out`;
  const which = omitted.length === 1 ? `interval ${last.index} (to ${last.t.toFixed(2)} s) is` : `intervals 1–${last.index} (to ${last.t.toFixed(2)} s) are`;
  return `Omitted (--omit ${s} s): ${which} shown but left out of the totals and the verdict`;
}
