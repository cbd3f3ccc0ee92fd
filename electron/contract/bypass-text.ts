/**
 * How long a run went around the link emulator, and what that does to its figures. One rule,
 * stated by the Results screen, the CLI summary and the HTML report alike: a run that was
 * bypassed for part of its time mixes the emulated link with the unshaped local path.
 */
import type { LonghaulResult } from './result.js';

/** What the rule reads of a result. */
export type BypassedRun = Pick<LonghaulResult, 'link' | 'total' | 'intervals'>;

/**
 * Seconds the proxy's bypass was on, up to the run's end; null for a run without the link
 * emulator. A bypass still on when the run ended counts to the end: the later of the total's
 * seconds and the last interval's time (the total's seconds are unknown in some partial runs).
 */
export function bypassedSeconds(r: BypassedRun): number | null {
  const toggles = r.link?.bypassToggles;
  if (!toggles) return null;
  const end = Math.max(r.total.seconds ?? 0, ...r.intervals.map((iv) => iv.t));
  let on: number | null = null;
  let total = 0;
  for (const b of toggles) {
    if (b.bypass && on === null) on = b.t;
    else if (!b.bypass && on !== null) {
      total += b.t - on;
      on = null;
    }
  }
  return on !== null ? total + Math.max(0, end - on) : total;
}

/** The caveat for a run that was bypassed for some of its time (said after its verdict), else null. */
export function bypassCaveat(r: BypassedRun): string | null {
  const seconds = bypassedSeconds(r);
  if (seconds === null || seconds <= 0) return null;
  return `The link bypass was on for ${seconds.toFixed(1)} s of this run: the totals and the verdict above mix the emulated link with the unshaped local path.`;
}
