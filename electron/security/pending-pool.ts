/**
 * Connections that have not yet proven who they are (sorting, TLS handshake,
 * first message, pairing). A handshake takes a few round trips: a millisecond
 * on a LAN, a second or more over the satellite links Longhaul is for, so the
 * policy must not make a real controller's slow handshake the one that goes.
 *
 *  - Per source address, at most `perAddress` wait (more for the controller of
 *    the run taking its data connections); one more from that address evicts
 *    that address's oldest idle connection, else its oldest: an address can
 *    only ever crowd out itself (a stranger behind the controller's own NAT
 *    can still delay it, as before; one elsewhere no longer can).
 *  - At the cap, a new connection evicts, in this order: the oldest that has
 *    sent nothing yet (an idle flood), then the oldest mid-handshake from the
 *    address with the most waiting. The newcomer is never the one evicted, so
 *    a slowloris holding every slot cannot lock a real controller out.
 *  - Addresses of paired peers (where they were last seen) have a reserve of
 *    their own above the cap, and strangers never evict them.
 *  - The responder's server caps all its connections (`maxConnections`).
 */
import type net from 'node:net';

export interface PendingTicket {
  /** The connection sent its first bytes: it is mid-handshake now, not idle. */
  markActive(): void;
  /** Leave the pool (authenticated, handed on, or gone). Idempotent. */
  release(): void;
}

export interface PendingPoolOptions {
  /** How many strangers may wait at once (plus `extra`, given per admission). */
  cap: number;
  /** How many may wait from one address. */
  perAddress: number;
  /** Extra room for addresses of paired peers. */
  peerReserve: number;
  /** Whether an address is a paired peer's (never throws). */
  isPeerAddress: (address: string) => boolean;
  /** Called for each connection evicted, with why. */
  onDrop: (s: net.Socket, why: string) => void;
}

interface Entry {
  socket: net.Socket;
  address: string;
  active: boolean;
  peer: boolean;
}

export const DEFAULT_PENDING = { cap: 32, perAddress: 8, peerReserve: 8 } as const;

export class PendingPool {
  /** In arrival order. */
  private readonly waiting = new Map<net.Socket, Entry>();
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly o: PendingPoolOptions) {}

  get size(): number {
    return this.waiting.size;
  }

  /**
   * Let `socket` wait, evicting by the policy above; `extra` more may wait while a run takes its
   * data connections, all from `extraAddress` (its controller).
   */
  admit(socket: net.Socket, extra = 0, extraAddress: string | null = null): PendingTicket {
    const address = socket.remoteAddress ?? 'unknown';
    const peer = this.o.isPeerAddress(address);
    const mine = [...this.waiting.values()].filter((e) => e.address === address);
    const ownCap = this.o.perAddress + (peer ? this.o.peerReserve : 0) + (address === extraAddress ? extra : 0);
    if (mine.length >= ownCap) {
      const own = mine.find((e) => !e.active) ?? mine[0];
      if (own) this.drop(own, `dropped: the oldest of ${mine.length} connections from ${address} waiting to identify themselves`);
    } else {
      const strangers = [...this.waiting.values()].filter((e) => !e.peer).length;
      const full = peer
        ? this.waiting.size - strangers >= this.o.peerReserve && this.waiting.size >= this.o.cap + extra + this.o.peerReserve
        : strangers >= this.o.cap + extra;
      const victim = full ? this.victim(peer) : null;
      if (victim) {
        this.drop(
          victim,
          victim.active
            ? `dropped mid-handshake: too many connections waiting, most of them from ${victim.address}`
            : 'dropped: it had sent nothing while too many connections waited to identify themselves',
        );
      }
    }
    const entry: Entry = { socket, address, active: false, peer };
    this.waiting.set(socket, entry);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    const release = (): void => {
      if (this.waiting.get(socket) === entry) this.remove(entry);
    };
    socket.once('close', release);
    return { markActive: () => void (entry.active = true), release };
  }

  private drop(e: Entry, why: string): void {
    this.remove(e);
    this.o.onDrop(e.socket, why);
  }

  /** Who goes for a newcomer: an idle stranger first, then a stranger mid-handshake from the busiest address. */
  private victim(newcomerIsPeer: boolean): Entry | null {
    const strangers = [...this.waiting.values()].filter((e) => !e.peer);
    const idle = strangers.find((e) => !e.active);
    if (idle) return idle;
    if (strangers.length) {
      const busiest = strangers.reduce((a, e) => ((this.perAddress.get(e.address) ?? 0) > (this.perAddress.get(a.address) ?? 0) ? e : a));
      return strangers.find((e) => e.address === busiest.address) ?? null;
    }
    // Only peers wait: a peer may replace its own oldest idle connection, a stranger nothing.
    return newcomerIsPeer ? ([...this.waiting.values()].find((e) => !e.active) ?? null) : null;
  }

  private remove(e: Entry): void {
    this.waiting.delete(e.socket);
    const n = (this.perAddress.get(e.address) ?? 1) - 1;
    if (n > 0) this.perAddress.set(e.address, n);
    else this.perAddress.delete(e.address);
  }
}
