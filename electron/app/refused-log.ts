/**
 * The Waiting screen's list of controllers turned away (not paired, wrong code,
 * locked out): newest first and bounded. One line per PC, address and reason,
 * with a count: a PC retrying every few seconds takes one line, not the list.
 * A PC that then pairs leaves the list (its "give it the code" is done).
 */
import type { RefusedAttempt } from '../contract/api.js';
import { shortFingerprint } from '../security/identity.js';
import type { Refusal } from '../security/responder-security.js';

/** Lines kept: enough for a lab's worth of PCs, few enough to read at a glance. */
export const REFUSED_LINES = 10;

export class RefusedLog {
  private lines: RefusedAttempt[] = [];

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = REFUSED_LINES,
  ) {}

  /** Record one refusal; returns the list as it now stands. */
  add(r: Refusal): RefusedAttempt[] {
    const fingerprint = shortFingerprint(r.fingerprint);
    const same = this.lines.find((l) => l.kind === r.kind && l.address === r.address && l.fingerprint === fingerprint);
    const line: RefusedAttempt = {
      kind: r.kind,
      at: new Date(this.now()).toISOString(),
      address: r.address,
      // A hello names the PC, a bare TLS hang-up may not: keep the name once known.
      name: r.name ?? same?.name ?? null,
      fingerprint,
      count: (same?.count ?? 0) + 1,
    };
    this.lines = [line, ...this.lines.filter((l) => l !== same)].slice(0, this.max);
    return this.list();
  }

  /** A PC that paired is no longer a stranger: drop its lines. Returns the list. */
  forget(fullFingerprint: string): RefusedAttempt[] {
    const fingerprint = shortFingerprint(fullFingerprint);
    this.lines = this.lines.filter((l) => l.fingerprint !== fingerprint);
    return this.list();
  }

  /** Newest first (a copy: the status object sent to the UI must not change under it). */
  list(): RefusedAttempt[] {
    return [...this.lines];
  }
}
