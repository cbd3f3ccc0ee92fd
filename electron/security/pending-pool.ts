/**
 * Connections that have not yet proven who they are (sorting, TLS handshake,
 * first message, pairing), and connections turned away while their one answer
 * is flushed. A handshake takes a few round trips: a millisecond on a LAN, a
 * second or more over the satellite links Longhaul is for, so the policy must
 * not make a real controller's slow handshake the one that goes.
 *
 *  - Per source address, at most `perAddress` wait (more for the controller of
 *    the run taking its data connections); one more from that address evicts
 *    that address's oldest idle connection, else its oldest: an address can
 *    only ever crowd out itself.
 *  - At the cap, a newcomer evicts one stranger: among those idle past their
 *    grace (nothing sent `graceMs` after accept) if there are any, else among
 *    all; from the address with the largest share; among equal shares the
 *    least advanced (a stalled fragment of a ClientHello before a whole one,
 *    that before a finished TLS handshake); among those the oldest. An
 *    address's share is what it holds now plus its strikes: connections of it
 *    evicted or turned away as junk, halving every `strikeHalfLifeMs`.
 *    Attackers spread over many addresses, each holding one connection and
 *    coming back after every drop, all collect strikes; a controller with one
 *    connection and no history has the smallest share, so no number of
 *    addresses below the cap keeps it out. A connection accepted within its
 *    grace and not read yet is neither idle nor least advanced (its first
 *    bytes may just not have been read): it goes last.
 *  - The newcomer is never the one evicted, so a slowloris holding every slot
 *    cannot lock a real controller out.
 *  - Addresses of paired peers (where they were last seen), and the run's own
 *    controller while it opens its data connections, are protected: they have
 *    room of their own (their per-address share) and strangers never evict them.
 *  - The responder's server caps all its connections (`maxConnections`).
 */
import type net from 'node:net';
import { Strikes } from './strikes.js';

/**
 * How far a connection got, in order: sent nothing; sent its first bytes; sent a whole first TLS
 * record (a ClientHello, not a stalled fragment of one); finished its TLS handshake.
 */
type PendingProgress = 'idle' | 'bytes' | 'hello' | 'secure';
const PROGRESS_RANK: Record<PendingProgress, number> = { idle: 0, bytes: 1, hello: 2, secure: 3 };

export interface PendingTicket {
  /** The connection got this far (never back): from 'bytes' on it is mid-handshake, not idle. */
  advance(progress: PendingProgress): void;
  /** The connection turned out to be junk: it counts against its address's share for a while. */
  strike(): void;
  /** Leave the pool (authenticated, handed on, or gone). Idempotent. */
  release(): void;
  /** Whether the pool evicted it (and already said why). */
  readonly dropped: boolean;
}

interface PendingPoolOptions {
  /** How many strangers may wait at once. */
  cap: number;
  /** How many may wait from one address. */
  perAddress: number;
  /** Extra room per address for addresses of paired peers. */
  peerReserve: number;
  /** Whether an address is a paired peer's (never throws). */
  isPeerAddress: (address: string) => boolean;
  /** Called for each connection evicted, with why. */
  onDrop: (s: net.Socket, why: string) => void;
  /** How long after accept a connection that sent nothing still does not count as idle, ms. */
  graceMs?: number;
  /** How fast an address's strikes fade: they halve every this many ms. */
  strikeHalfLifeMs?: number;
  now?: () => number;
}

interface Entry {
  socket: net.Socket;
  address: string;
  acceptedAt: number;
  /** PROGRESS_RANK of how far it got. */
  progress: number;
  protected: boolean;
  dropped: boolean;
}

/**
 * Grace: a client sends its ClientHello with the last packet of the TCP handshake, so its first bytes are
 * read within milliseconds of accept even over a satellite link; 1 s also covers a loaded event loop.
 * Strikes fade over half a minute: long enough to outlast an attacker's reconnect, short enough that an
 * address that stopped is back to an ordinary share within a minute or two.
 */
export const DEFAULT_PENDING = { cap: 32, perAddress: 8, peerReserve: 8, graceMs: 1000, strikeHalfLifeMs: 30_000 } as const;

export class PendingPool {
  /** In arrival order. */
  private readonly waiting = new Map<net.Socket, Entry>();
  private readonly perAddress = new Map<string, number>();
  private readonly strikes: Strikes;
  private readonly now: () => number;

  constructor(private readonly o: PendingPoolOptions) {
    this.now = o.now ?? Date.now;
    this.strikes = new Strikes(o.strikeHalfLifeMs ?? DEFAULT_PENDING.strikeHalfLifeMs, this.now);
  }

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
    const runs = extra > 0 && address === extraAddress;
    const mine = [...this.waiting.values()].filter((e) => e.address === address);
    const ownCap = this.o.perAddress + (peer ? this.o.peerReserve : 0) + (runs ? extra : 0);
    if (mine.length >= ownCap) {
      const own = mine.find((e) => e.progress === 0) ?? mine[0];
      if (own) this.drop(own, `dropped: the oldest of ${mine.length} connections from ${address} waiting to identify themselves`);
    } else if (!peer && !runs && this.strangers().length >= this.o.cap) {
      const victim = this.victim();
      if (victim) {
        this.drop(
          victim,
          victim.progress > 0
            ? `dropped mid-handshake: too many connections waiting, the largest share from ${victim.address}`
            : 'dropped: it had sent nothing while too many connections waited to identify themselves',
        );
      }
    }
    const entry: Entry = { socket, address, acceptedAt: this.now(), progress: 0, protected: peer || runs, dropped: false };
    this.waiting.set(socket, entry);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    const release = (): void => {
      if (this.waiting.get(socket) === entry) this.remove(entry);
    };
    socket.once('close', release);
    return {
      advance: (p) => void (entry.progress = Math.max(entry.progress, PROGRESS_RANK[p])),
      strike: () => this.strikes.add(address),
      release,
      get dropped() {
        return entry.dropped;
      },
    };
  }

  private strangers(): Entry[] {
    return [...this.waiting.values()].filter((e) => !e.protected);
  }

  private drop(e: Entry, why: string): void {
    this.remove(e);
    e.dropped = true;
    this.strikes.add(e.address);
    this.o.onDrop(e.socket, why);
  }

  /**
   * Who goes for a newcomer: a stranger idle past its grace if any, else any stranger past its grace
   * or already read (else any); from the largest share; among equal shares the least advanced; among
   * those the oldest.
   */
  private victim(): Entry | null {
    const strangers = this.strangers();
    const idleSince = this.now() - (this.o.graceMs ?? DEFAULT_PENDING.graceMs);
    // One accepted within its grace whose bytes are not read yet is neither idle nor least advanced: unknown, it goes last.
    const known = strangers.filter((e) => e.progress > 0 || e.acceptedAt <= idleSince);
    const idle = known.filter((e) => e.progress === 0);
    const pool = idle.length ? idle : known.length ? known : strangers;
    let best: Entry | null = null;
    let bestShare = -1;
    // Arrival order: on a tie the older connection keeps its place as `best`.
    for (const e of pool) {
      const share = (this.perAddress.get(e.address) ?? 0) + this.strikes.of(e.address);
      if (share > bestShare || (share === bestShare && best && e.progress < best.progress)) {
        best = e;
        bestShare = share;
      }
    }
    return best;
  }

  private remove(e: Entry): void {
    this.waiting.delete(e.socket);
    const n = (this.perAddress.get(e.address) ?? 1) - 1;
    if (n > 0) this.perAddress.set(e.address, n);
    else this.perAddress.delete(e.address);
  }
}
