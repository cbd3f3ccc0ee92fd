/**
 * Where the user is in the app, kept per tab (sessionStorage) so a reload comes back to it: the screen, and
 * on Run the run being watched, on Results the result shown. The wizard's choices are kept apart, per PC
 * (lib/persist.ts). What is read back is checked; anything else reads as "no place" and never throws.
 */
import type { Screen } from './screen-transitions.js';

/** The storage key; its `/1` is the layout's version. */
export const PLACE_KEY = 'longhaul.place/1';

/** A screen and, where the screen shows one, what it shows. */
export type Place = { screen: 'run'; runId: string } | { screen: 'results'; resultId: string } | { screen: PlainScreen };

/** The screens a reload may come back to by themselves (Run and Results need their run or result; Sweep and Ramp theirs, not kept). */
const PLAIN = ['start', 'pair', 'link', 'test', 'history', 'waiting', 'schedules'] as const satisfies readonly Screen[];
type PlainScreen = (typeof PLAIN)[number];
/** Run ids and result ids are short printable tokens (hex, `responder-1`); anything else is not ours. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The place now, or null when it cannot be kept: Run before the host has named the run, Results of a group run,
 * Sweep and Ramp (a reload then comes back to the place before).
 */
export function placeOf(screen: Screen, runId: string | null, resultId: string | null): Place | null {
  if (screen === 'run') return runId ? { screen, runId } : null;
  if (screen === 'results') return resultId ? { screen, resultId } : null;
  const plain = PLAIN.find((s) => s === screen);
  return plain !== undefined ? { screen: plain } : null;
}

/** The stored place, checked; null when there is none or it is not one. */
export function parsePlace(text: string | null): Place | null {
  if (text === null) return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (o.screen === 'run') return typeof o.runId === 'string' && ID.test(o.runId) ? { screen: 'run', runId: o.runId } : null;
  if (o.screen === 'results') return typeof o.resultId === 'string' && ID.test(o.resultId) ? { screen: 'results', resultId: o.resultId } : null;
  const plain = PLAIN.find((s) => s === o.screen);
  return plain !== undefined ? { screen: plain } : null;
}

/** Two places are the same stop in the browser's history (Back goes to the one before). */
export function samePlace(a: Place | null, b: Place | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
