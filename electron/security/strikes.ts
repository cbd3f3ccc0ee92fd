/**
 * Strikes per address that fade: each counts 1 when added and halves every
 * `halfLifeMs`. The pending pool weighs an address's share by them, so an
 * attacker that spreads over many addresses, each dropped and back again,
 * weighs more than a newcomer that has done nothing yet.
 */

/** Addresses remembered at most (an IPv6 flood can bring a new one with every connection). */
const MAX_ADDRESSES = 4096;
/** Below this a strike is forgotten: it no longer tips a choice between two addresses. */
const FORGET_BELOW = 0.05;

interface Tally {
  value: number;
  at: number;
}

export class Strikes {
  private readonly byAddress = new Map<string, Tally>();

  constructor(
    private readonly halfLifeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** An address's strikes now (0 when it has none). */
  of(address: string): number {
    const t = this.byAddress.get(address);
    return t ? this.decayed(t, this.now()) : 0;
  }

  add(address: string): void {
    const now = this.now();
    const t = this.byAddress.get(address);
    const value = (t ? this.decayed(t, now) : 0) + 1;
    // Re-inserted at the end: the map stays ordered by last strike, so the stalest go first below.
    this.byAddress.delete(address);
    this.byAddress.set(address, { value, at: now });
    if (this.byAddress.size > MAX_ADDRESSES) this.prune(now);
  }

  get size(): number {
    return this.byAddress.size;
  }

  private decayed(t: Tally, now: number): number {
    return t.value * Math.pow(0.5, Math.max(0, now - t.at) / this.halfLifeMs);
  }

  private prune(now: number): void {
    for (const [address, t] of this.byAddress) if (this.decayed(t, now) < FORGET_BELOW) this.byAddress.delete(address);
    // Still full of live strikes: forget the stalest quarter (a new address starts at zero anyway).
    if (this.byAddress.size > MAX_ADDRESSES) {
      let n = this.byAddress.size - (MAX_ADDRESSES * 3) / 4;
      for (const address of this.byAddress.keys()) {
        if (n-- <= 0) break;
        this.byAddress.delete(address);
      }
    }
  }
}
