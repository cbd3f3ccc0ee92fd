/**
 * One proxied connection: the client's socket, the target's socket, and a
 * pipe each way. Half-closes pass through (a FIN travels behind the last
 * byte, after the emulated delay). A reset or a socket that dies with bytes
 * still owed tears down both sides: the peer sees its connection end, never a
 * silently shortened stream.
 *
 * The bytes move through Node's sockets or the addon's relay threads
 * (relay-mode.ts). With the relay threads, Node leaves both sockets paused
 * and sees nothing of them: the threads report a FIN, a reset or a failed
 * write, and once both have let go the sockets are closed here.
 */
import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { socketFd } from '../native/node-handle.js';
import { PeerError, type LonghaulError } from '../util/errors.js';
import { NodeMover, type ByteMover } from './byte-mover.js';
import type { EmulatorWatch } from './emulator-watch.js';
import { NativeMover, type NativeMoverEnd } from './native-mover.js';
import { inboxLimitFor, Pipe } from './pipe.js';
import type { RelayChoice } from './relay-mode.js';
import type { LinkDirection, StageConfig, StageContext } from './stage.js';

/** A stage chain per direction: `up` is client → target, `down` target → client. */
export interface LinkChains {
  up: StageConfig[];
  down: StageConfig[];
}

interface ConnectionOptions {
  client: net.Socket;
  target: net.Socket;
  chains: LinkChains;
  /** Per-direction state shared by all connections (the rate stage's wire clock). */
  shared: Record<LinkDirection, Map<string, unknown>>;
  bypass: boolean;
  now(): number;
  /** Which byte mover (relay-mode.ts). */
  relay: RelayChoice;
  /** The emulator's watch on itself, per direction (shared by every connection). */
  watch: Record<LinkDirection, EmulatorWatch>;
}

interface ConnectionEvents {
  /** Both sockets closed; `err` when the connection was torn down abnormally. */
  close: [LonghaulError | null];
}

export class ProxyConnection extends EventEmitter<ConnectionEvents> {
  readonly up: Pipe;
  readonly down: Pipe;
  private closedSockets = 0;
  private error: LonghaulError | null = null;
  private done = false;

  private nativeEnded = 0;
  /** destroy() ran: the sockets' 'close' events that follow are ours, not a peer vanishing. */
  private tornDown = false;

  constructor(private readonly o: ConnectionOptions) {
    super();
    const { client, target } = o;
    for (const s of [client, target]) s.setNoDelay(true);
    const clientFd = socketFd(client);
    const targetFd = socketFd(target);
    const startRelay = o.relay.kind === 'native' ? (o.relay.api?.startRelay ?? null) : null;
    const mover = (dir: LinkDirection, source: net.Socket, sink: net.Socket, srcFd: number | null, dstFd: number | null): ByteMover =>
      startRelay && srcFd !== null && dstFd !== null
        ? new NativeMover(startRelay, srcFd, dstFd, (end) => this.onNativeEnd(dir, end))
        : new NodeMover(source, sink, inboxLimitFor(o.chains[dir]) / 2, o.now);
    const upMover = mover('up', client, target, clientFd, targetFd);
    const downMover = mover('down', target, client, targetFd, clientFd);
    this.up = new Pipe({
      mover: upMover,
      configs: o.chains.up,
      ctx: this.context('up'),
      returnDelayMs: () => this.down.chain.delayMs,
      now: o.now,
      watch: o.watch.up,
    });
    this.down = new Pipe({
      mover: downMover,
      configs: o.chains.down,
      ctx: this.context('down'),
      returnDelayMs: () => this.up.chain.delayMs,
      now: o.now,
      watch: o.watch.down,
    });
    o.watch.up.track(this.up);
    o.watch.down.track(this.down);
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
    this.tornDown = true;
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

  /**
   * A relay thread let go of its descriptors: after its FIN was passed on, or on an OS error
   * (recv: its source's side failed; send/shutdown: its sink's). Both done: close the sockets.
   */
  private onNativeEnd(dir: LinkDirection, end: NativeMoverEnd): void {
    if (end.err) {
      const sourceSide = end.err.syscall === 'recv';
      const which = (dir === 'up') === sourceSide ? 'client' : 'target';
      this.onSocketError(which, end.err);
      return;
    }
    if (++this.nativeEnded === 2) {
      this.o.client.destroy();
      this.o.target.destroy();
    }
  }

  private onSocketError(which: 'client' | 'target', err: NodeJS.ErrnoException): void {
    // A side that resets after the other side's FIN reached it is closing, not failing: a
    // responder that exits after its run (a TLS close_notify it never read) does that at the
    // end of three loopback runs in four. Both sides are closed all the same; only not reported.
    const toIt = which === 'target' ? this.up : this.down;
    if (isReset(err) && toIt.finished) return this.destroy();
    this.destroy(new PeerError('LH_ERR_PEER_GONE', `the ${which} connection failed (${err.code ?? err.message}); both sides were closed`));
  }

  private onSocketClose(which: 'client' | 'target'): void {
    // The socket this side writes to is gone before its pipe delivered everything, or it vanished without a FIN.
    const owed = which === 'client' ? this.down : this.up;
    const reading = which === 'client' ? this.up : this.down;
    if (!this.tornDown && (!owed.finished || !reading.sourceEnded)) {
      this.destroy(
        new PeerError('LH_ERR_PEER_GONE', `the ${which} closed while the proxy still had bytes for it or before it finished sending; both sides were closed`),
      );
    }
    if (++this.closedSockets === 2 && !this.done) {
      this.done = true;
      this.up.destroy();
      this.down.destroy();
      this.o.watch.up.untrack(this.up);
      this.o.watch.down.untrack(this.down);
      this.emit('close', this.error);
    }
  }
}

/** A connection reset, from Node (`code`) or the relay thread (its `errno` text). */
function isReset(err: NodeJS.ErrnoException): boolean {
  return err.code === 'ECONNRESET' || err.code === 'EPIPE' || /reset by peer|broken pipe/i.test(err.message);
}
