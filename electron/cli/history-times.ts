/**
 * The times `longhaul history` takes: `--since`/`--until` as an ISO 8601 date or time, or as a
 * time back from now (`30m`, `2h`, `7d`, `2w`); `--older-than` as an age (`90d`, `12h`). A date or
 * time without a zone is this PC's local time, as the table shows it; a date alone is its midnight.
 * Each refusal says what was expected.
 */
import { InvalidArgumentError } from 'commander';

/** Seconds per unit of an age. */
const AGE_UNITS: Record<string, number> = { s: 1, sec: 1, m: 60, min: 60, h: 3600, d: 86_400, w: 604_800 };
const AGE = /^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|d|w)\s*$/i;
const ISO = /^\s*(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?\s*$/i;

const AGE_EXAMPLES = '30m, 2h, 7d, 2w';
const WHEN_EXPECTED = `an ISO 8601 date or time (2026-12-01, 2026-12-01T08:00, 2026-12-01T08:00:00Z) or a time back from now (${AGE_EXAMPLES})`;

/** An age in seconds (`90d` → 7,776,000), or null when `text` is not one. */
function ageSeconds(text: string): number | null {
  const m = AGE.exec(text);
  if (!m) return null;
  return Number(m[1]) * (AGE_UNITS[(m[2] ?? '').toLowerCase()] ?? NaN);
}

/**
 * An ISO 8601 date or time as an instant; null when `text` is not in that form; a string saying
 * why when it is but names no real time (2026-02-30, 25:00).
 */
function isoTime(text: string): Date | string | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0', frac = '0', zone] = m.slice(1);
  const n = (v: string | undefined): number => Number(v);
  const ms = Math.floor(Number(`0.${frac}`) * 1000);
  // Date rolls 2026-02-30 over to March 2: refused, as the typo it is.
  const day = new Date(Date.UTC(n(y), n(mo) - 1, n(d)));
  if (n(mo) < 1 || n(mo) > 12 || day.getUTCDate() !== n(d)) return `${y}-${mo}-${d} is not a day of the calendar`;
  if (n(h) > 23 || n(mi) > 59 || n(s) > 59) return `${text.trim()} has no such time of day`;
  if (!zone) return new Date(n(y), n(mo) - 1, n(d), n(h), n(mi), n(s), ms);
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
  const at = new Date(`${y}-${mo}-${d}T${pad2(h)}:${pad2(mi)}:${pad2(s)}.${String(ms).padStart(3, '0')}${offset}`);
  return Number.isNaN(at.getTime()) ? `${zone} is not a time zone offset (Z, +01:00)` : at;
}

function pad2(v: string): string {
  return v.padStart(2, '0');
}

/** commander's parser for `--since`/`--until`: the instant meant, `now` less an age for a relative one. */
export function whenParser(now: () => Date = () => new Date()): (text: string) => Date {
  return (text) => {
    const age = ageSeconds(text);
    if (age !== null) return new Date(now().getTime() - age * 1000);
    const at = isoTime(text);
    if (at instanceof Date) return at;
    throw new InvalidArgumentError(at ?? `expected ${WHEN_EXPECTED}`);
  };
}

/** commander's parser for `--older-than`: an age in days, between `minDays` and `maxDays`. */
export function ageDaysParser(minDays: number, maxDays: number): (text: string) => number {
  return (text) => {
    const s = ageSeconds(text);
    if (s === null) throw new InvalidArgumentError(`expected an age with its unit (${AGE_EXAMPLES}, 90d)`);
    const days = s / 86_400;
    if (days < minDays || days > maxDays) throw new InvalidArgumentError(`give between ${Math.round(minDays * 24)} h and ${maxDays} days`);
    return days;
  };
}
