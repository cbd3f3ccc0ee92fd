/**
 * One proxied connection: the client's socket, the target's socket, and a
 * pipe each way. Half-closes pass through (a FIN travels behind the last
 * byte, after the emulated delay). A reset or a socket that dies with bytes
 * still owed tears down both sides: the peer sees its connection end, never a
 * silently shortened stream.
 */
import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { PeerError, type LonghaulError } from '../util/errors.js';
import { Pipe } from './pipe.js';
import type { LinkDirection, StageConfig, StageContext } from './stage.js';

/** A stage chain per direction: `up` is client → target, `down` target → client. */
export interface LinkChains {
  up: StageConfig[];
  down: StageConfig[];
}

export interface ConnectionOptions {
  client: net.Socket;
  target: net.Socket;
  chains: LinkChains;
  /** Per-direction state shared by all connections (the rate stage's wire clock). */
  shared: Record<LinkDirection, Map<string, unknown>>;
  bypass: boolean;
  now(): number;
}

export interface ConnectionEvents {
  /** Both sockets closed; `err` when the connection was torn down abnormally. */
  close: [LonghaulError | null];
}

export class ProxyConnection extends EventEmitter<ConnectionEvents> {
  readonly up: Pipe;
  readonly down: Pipe;
  private closedSockets = 0;
  private error: LonghaulError | null = null;
  private done = false;

  constructor(private readonly o: ConnectionOptions) {
    super();
    const { client, target } = o;
    for (const s of [client, target]) s.setNoDelay(true);
    this.up = new Pipe({ source: client, sink: target, configs: o.chains.up, ctx: this.context('up'), returnDelayMs: () => this.down.chain.delayMs, now: o.now });
    this.down = new Pipe({ source: target, sink: client, configs: o.chains.down, ctx: this.context('down'), returnDelayMs: () => this.up.chain.delayMs, now: o.now });
    this.up.setBypass(o.bypass);
    this.down.setBypass(o.bypass);
    this.onSocketError = this.onSocketError.bind(this);
    client.on('error', (err) => this.onSocketError('client', err));
    target.on('error', (err) => this.onSocketError('target', err));
    client.on('close', () => this.onSocketClose('client'));
    target.on('close', () => this.onSocketClose('target'));
  }

  reconfigure(chains: LinkChains): void {
    this.up.reconfigure(chains.up);
    this.down.reconfigure(chains.down);
  }

  setBypass(on: boolean): void {
    this.up.setBypass(on);
    this.down.setBypass(on);
  }

  /** Tear down both sides now. Safe to call twice. */
  destroy(err?: LonghaulError): void {
    this.error ??= err ?? null;
    this.up.destroy();
    this.down.destroy();
    this.o.client.destroy();
    this.o.target.destroy();
  }

  private context(direction: LinkDirection): StageContext {
    const pipe = (): Pipe => (direction === 'up' ? this.up : this.down);
    return {
      direction,
      rttMs: () => this.up.chain.delayMs + this.down.chain.delayMs,
      random: Math.random,
      shared: this.o.shared[direction],
      signalLoss: () => pipe().signalLoss(),
    };
  }

  private onSocketError(which: 'client' | 'target', err: NodeJS.ErrnoException): void {
    this.destroy(new PeerError('LH_ERR_PEER_GONE', `the ${which} connection failed (${err.code ?? err.message}); both sides were closed`));
  }

  private onSocketClose(which: 'client' | 'target'): void {
    // The socket this side writes to is gone before its pipe delivered everything, or it vanished without a FIN.
    const owed = which === 'client' ? this.down : this.up;
    const reading = which === 'client' ? this.up : this.down;
    if (!owed.finished || !reading.sourceEnded) {
      this.destroy(new PeerError('LH_ERR_PEER_GONE', `the ${which} closed while the proxy still had bytes for it or before it finished sending; both sides were closed`));
    }
    if (++this.closedSockets === 2 && !this.done) {
      this.done = true;
      this.up.destroy();
      this.down.destroy();
      this.emit('close', this.error);
    }
  }
}
