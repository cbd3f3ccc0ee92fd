/**
 * Online guessing of the pairing code, per source address: after `maxAttempts`
 * wrong codes in a row from one address, that address is locked out for
 * `lockoutMs`, and every further wrong code from it after a lockout locks it
 * again for twice as long (up to `maxLockoutMs`). Other addresses are not
 * touched: a stranger on the LAN cannot keep the real controller from pairing
 * (with one counter for the whole responder, anyone could lock pairing for
 * ever and the right code was refused meanwhile). With 60-bit codes and proof
 * checks one at a time (proof-queue.ts), guessing from many addresses is out
 * of reach anyway. The table is bounded: the least recently seen address goes.
 */
export interface PairingGuardOptions {
  maxAttempts: number;
  lockoutMs: number;
  maxLockoutMs: number;
  /** Addresses remembered at once. */
  maxAddresses: number;
}

const DEFAULT_PAIRING_GUARD: PairingGuardOptions = { maxAttempts: 5, lockoutMs: 30_000, maxLockoutMs: 15 * 60_000, maxAddresses: 4096 };

type GuardVerdict = { allowed: true } | { allowed: false; retryInMs: number };

interface AddressState {
  failures: number;
  lockouts: number;
  lockedUntil: number;
  /** The operator was told this address sent mismatched certificates (once per address, not per request). */
  warned: boolean;
}

export class PairingGuard {
  private readonly byAddress = new Map<string, AddressState>();
  private readonly opts: PairingGuardOptions;

  constructor(
    opts: Partial<PairingGuardOptions> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.opts = { ...DEFAULT_PAIRING_GUARD, ...opts };
  }

  /** May an attempt from `address` be checked now? */
  check(address: string): GuardVerdict {
    const left = (this.byAddress.get(address)?.lockedUntil ?? 0) - this.now();
    return left > 0 ? { allowed: false, retryInMs: left } : { allowed: true };
  }

  /** Wrong attempts `address` has left before its next lockout. */
  attemptsLeft(address: string): number {
    const s = this.byAddress.get(address);
    if (!s) return this.opts.maxAttempts;
    return s.lockouts > 0 ? 1 : Math.max(0, this.opts.maxAttempts - s.failures);
  }

  /** Record a wrong attempt from `address`; returns the lockout it caused, in ms (0 = none yet). */
  fail(address: string): number {
    const s = this.state(address);
    s.failures++;
    if (s.lockouts === 0 && s.failures < this.opts.maxAttempts) return 0;
    const ms = Math.min(this.opts.maxLockoutMs, this.opts.lockoutMs * 2 ** s.lockouts);
    s.lockouts++;
    s.lockedUntil = this.now() + ms;
    return ms;
  }

  /** True the first time `address` is reported for mismatched certificates: the operator hears of it once. */
  firstWarning(address: string): boolean {
    const s = this.state(address);
    if (s.warned) return false;
    s.warned = true;
    return true;
  }

  /** A right code: the code is spent, every address starts over. */
  succeed(): void {
    this.byAddress.clear();
  }

  private state(address: string): AddressState {
    let s = this.byAddress.get(address);
    if (s) {
      this.byAddress.delete(address); // re-insert: the Map's order is the recency order
    } else {
      s = { failures: 0, lockouts: 0, lockedUntil: 0, warned: false };
      while (this.byAddress.size >= this.opts.maxAddresses) this.byAddress.delete(this.byAddress.keys().next().value as string);
    }
    this.byAddress.set(address, s);
    return s;
  }
}
