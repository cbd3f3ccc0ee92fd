/**
 * Online guessing of the pairing code: after `maxAttempts` wrong codes in a
 * row, pairing locks for `lockoutMs`; every further wrong code after a lockout
 * locks again for twice as long (up to `maxLockoutMs`). The right code during
 * a lockout is refused too. One guard per responder, not per address: an
 * attacker with many addresses gains nothing (it can only delay pairing).
 */
export interface PairingGuardOptions {
  maxAttempts: number;
  lockoutMs: number;
  maxLockoutMs: number;
}

export const DEFAULT_PAIRING_GUARD: PairingGuardOptions = { maxAttempts: 5, lockoutMs: 30_000, maxLockoutMs: 15 * 60_000 };

export type GuardVerdict = { allowed: true } | { allowed: false; retryInMs: number };

export class PairingGuard {
  private failures = 0;
  private lockouts = 0;
  private lockedUntil = 0;

  constructor(private readonly opts: PairingGuardOptions = DEFAULT_PAIRING_GUARD, private readonly now: () => number = Date.now) {}

  /** May an attempt be checked now? */
  check(): GuardVerdict {
    const left = this.lockedUntil - this.now();
    return left > 0 ? { allowed: false, retryInMs: left } : { allowed: true };
  }

  /** Wrong attempts left before the next lockout. */
  get attemptsLeft(): number {
    return this.lockouts > 0 ? 1 : Math.max(0, this.opts.maxAttempts - this.failures);
  }

  /** Record a wrong attempt; returns the lockout it caused, in ms (0 = none yet). */
  fail(): number {
    this.failures++;
    if (this.lockouts === 0 && this.failures < this.opts.maxAttempts) return 0;
    const ms = Math.min(this.opts.maxLockoutMs, this.opts.lockoutMs * 2 ** this.lockouts);
    this.lockouts++;
    this.lockedUntil = this.now() + ms;
    return ms;
  }

  /** A right code: start over. */
  succeed(): void {
    this.failures = 0;
    this.lockouts = 0;
    this.lockedUntil = 0;
  }
}
