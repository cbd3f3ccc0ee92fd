/**
 * Connections that have not yet proven who they are (sorting, TLS handshake,
 * first message, pairing). The pool has a cap; when a new connection arrives
 * at the cap, the *oldest* waiting one is dropped, not the new one: a slow
 * attacker (slowloris) holding every slot cannot lock a real controller out,
 * whose handshake takes milliseconds.
 */
import type net from 'node:net';

export interface PendingTicket {
  /** Leave the pool (authenticated, handed on, or gone). Idempotent. */
  release(): void;
}

export class PendingPool {
  private readonly waiting = new Map<net.Socket, number>();

  /** @param cap how many may wait at once (plus `extra`, given per admission) */
  constructor(private readonly cap: number, private readonly onEvict: (s: net.Socket) => void = (s) => s.destroy()) {}

  get size(): number {
    return this.waiting.size;
  }

  /** Let `socket` wait, evicting the oldest waiting connections if the pool is full. */
  admit(socket: net.Socket, extra = 0): PendingTicket {
    while (this.waiting.size >= this.cap + extra) {
      const oldest = this.waiting.keys().next().value as net.Socket;
      this.waiting.delete(oldest);
      this.onEvict(oldest);
    }
    this.waiting.set(socket, Date.now());
    const release = (): void => {
      this.waiting.delete(socket);
    };
    socket.once('close', release);
    return { release };
  }
}
