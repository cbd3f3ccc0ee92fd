/**
 * The Waiting screen's pairing sentences: how long the code stays valid, and
 * one line per controller this PC turned away, with what to do about it.
 */
import type { RefusedAttempt } from '../../../electron/contract/api.js';

/** "valid for 7 more minutes" (rounded up: a code with 30 s left is still valid for "1 more minute"). */
export function codeValidity(expiresAt: number | null, now: number): string {
  if (expiresAt === null) return 'valid until used';
  const minutes = Math.max(1, Math.ceil((expiresAt - now) / 60_000));
  return `valid for ${minutes} more minute${minutes === 1 ? '' : 's'}`;
}

/** What happened, per kind, after "PC lab-7 at 10.0.0.5 (fingerprint …)". */
const WHAT: Record<RefusedAttempt['kind'], string> = {
  'not-paired': 'tried to connect but is not paired with this PC: give it the code above',
  'wrong-code': 'typed a wrong pairing code: check that it types the code above',
  locked: 'typed wrong codes too often and must wait before trying again: check that it types the code above',
};

/** One refused controller as a sentence, e.g. "PC lab-7 at 10.0.0.5 (fingerprint AB12 …) tried to connect but is not paired with this PC: give it the code above." */
export function refusedLine(r: RefusedAttempt): string {
  const who = r.name ? `PC ${r.name} at ${r.address}` : `A PC at ${r.address}`;
  return `${who} (fingerprint ${r.fingerprint}) ${WHAT[r.kind]}.`;
}

/** When, and how often: "at 14:02:11" or "3 times, last at 14:02:11" (this PC's local time). */
export function refusedWhen(r: RefusedAttempt, locale?: string): string {
  const time = new Date(r.at).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return r.count > 1 ? `${r.count} times, last at ${time}` : `at ${time}`;
}
