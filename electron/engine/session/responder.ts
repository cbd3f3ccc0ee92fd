/**
 * A responder: the PC waiting for a partner. One TCP port carries the control
 * connection and every data connection of a run. One run at a time: a second
 * controller gets a clear `LH_ERR_BUSY` and the first run goes on untouched.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { DEFAULT_PORT } from '../../contract/api.js';
import type { LonghaulResult } from '../../contract/result.js';
import { encodeFrame } from '../../protocol/framing.js';
import type { SessionState } from '../../protocol/session-state.js';
import { LonghaulError } from '../../util/errors.js';
import { sortConnection } from './connection-sorter.js';
import { nativeSockets } from '../../native/load-native.js';
import { tuneListener, tuneListenerMss, type ListenerMss, type ListenerTuning } from '../../native/tuned-socket.js';
import { ResponderSession } from './responder-session.js';
import { DEFAULT_RESPONDER_LIMITS, type ResponderLimits } from './responder-limits.js';
import { DEFAULT_PENDING, PendingPool, type PendingTicket } from '../../security/pending-pool.js';
import type { ResponderSecurity } from '../../security/responder-security.js';
import { holdsWholeTlsRecord, looksLikeTls, passGate } from '../../security/secure-gate.js';
import { answerAndClose } from '../../util/answer-and-close.js';
import { cappedServer, listenOn } from './capped-listener.js';
import { sharedPortConnection } from './responder-listener.js';
import { ControlChannel } from '../../protocol/control-channel.js';

export interface ResponderOptions {
  port?: number;
  host?: string;
  limits?: Partial<ResponderLimits>;
  /** Cap on connections from strangers that have not yet identified themselves (pending-pool.ts). */
  maxPendingConnections?: number;
  /** Cap on such connections from one address. */
  maxPendingPerAddress?: number;
  /** How long a new connection may take to send its first bytes, ms. */
  identifyTimeoutMs?: number;
  timeoutsMs?: Partial<Record<SessionState, number>>;
  maxWorkersPerRole?: number;
  /** Connections held at once, of every kind; more are closed at accept (default MAX_CONNECTIONS, capped-listener.ts). */
  maxConnections?: number;
  /** Identity, paired peers, pairing code: control connections are TLS 1.3 from paired controllers only. */
  security: ResponderSecurity;
}

interface ResponderEvents {
  session: [ResponderSession];
  'session-end': [LonghaulResult | null, LonghaulError | null];
  /** A connection was turned away (busy, garbage, timeout, bad cookie, too many pending). */
  rejected: [string, string];
}

export class Responder extends EventEmitter<ResponderEvents> {
  private readonly server: net.Server;
  private readonly opts: ResponderOptions;
  private active: ResponderSession | null = null;
  private readonly pending: PendingPool;
  private readonly sockets = new Set<net.Socket>();

  constructor(opts: ResponderOptions) {
    super();
    this.opts = opts;
    this.pending = new PendingPool({
      cap: opts.maxPendingConnections ?? DEFAULT_PENDING.cap,
      perAddress: opts.maxPendingPerAddress ?? DEFAULT_PENDING.perAddress,
      peerReserve: DEFAULT_PENDING.peerReserve,
      isPeerAddress: (address) => opts.security.isPeerAddress(address),
      onDrop: (s, why) => {
        this.emit('rejected', `${s.remoteAddress}:${s.remotePort}`, why);
        s.destroy();
      },
    });
    this.server = cappedServer({
      maxConnections: opts.maxConnections,
      onConnection: (s) => this.onConnection(s),
      onRejected: (peer, why) => this.emit('rejected', peer, why),
    });
  }

  /** Start listening; resolves with the bound address (port 0 picks a free port). */
  listen(): Promise<net.AddressInfo> {
    return listenOn(this.server, this.opts.port ?? DEFAULT_PORT, this.opts.host);
  }

  get address(): net.AddressInfo | null {
    return this.server.address() as net.AddressInfo | null;
  }

  get busy(): boolean {
    return this.active !== null;
  }

  /** Stop accepting and end every connection. Idempotent. */
  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => {
      if (!this.server.listening) return resolve();
      this.server.close(() => resolve());
    });
  }

  private async onConnection(socket: net.Socket): Promise<void> {
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    socket.on('error', () => undefined); // errors surface through the owner below
    // A run's data connections all arrive at once, unidentified until their header is read:
    // the cap grows by what the active session expects. At the cap the oldest waiting one goes.
    const active = this.active;
    const ticket = active ? this.pending.admit(socket, active.expectedDataConnections, active.channel.remoteAddress) : this.pending.admit(socket, 0, null);
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    // One deadline from accept to authenticated, whatever the peer sends and how slowly.
    const deadline = Date.now() + (this.opts.identifyTimeoutMs ?? 10_000);
    const sorted = await sortConnection(socket, deadline - Date.now());
    ticket.advance(sorted.kind === 'control' && holdsWholeTlsRecord(sorted.firstBytes) ? 'hello' : 'bytes');
    switch (sorted.kind) {
      case 'dead':
        ticket.release();
        // One report per connection: one the pool evicted was reported when it went.
        if (!ticket.dropped) this.emit('rejected', peer, sorted.reason);
        socket.destroy();
        return;
      case 'data':
        ticket.release();
        return this.onData(socket, sorted.header, peer);
      case 'control':
        return this.onControl(socket, sorted.firstBytes, peer, deadline, ticket);
    }
  }

  /** A data connection on the shared port, its header read: to the session waiting for it, from its controller's address only. */
  private async onData(socket: net.Socket, header: Buffer, peer: string): Promise<void> {
    const serving = this.active;
    if (!serving || !serving.wantsData) {
      this.emit('rejected', peer, 'data connection without a run waiting for it');
      socket.destroy();
      return;
    }
    // No reflection: data connections only from the address of the authenticated controller.
    if (socket.remoteAddress !== serving.channel.remoteAddress) {
      this.emit('rejected', peer, `data connection from ${socket.remoteAddress}, not from the paired controller`);
      socket.destroy();
      return;
    }
    await serving.acceptData(sharedPortConnection(socket, header));
  }

  /**
   * A connection turned away here stays in the pending pool (released when it closes) until its one
   * answer is flushed and it is destroyed: a flood of them counts against the pool's caps, never
   * piles up outside them.
   */
  private async onControl(socket: net.Socket, firstBytes: Buffer, peer: string, deadline: number, ticket: PendingTicket): Promise<void> {
    if (!looksLikeTls(firstBytes)) {
      ticket.strike();
      this.emit('rejected', peer, 'not TLS');
      const err = new LonghaulError(
        'LH_ERR_TLS_REQUIRED',
        'this responder takes TLS 1.3 control connections only: install the same Longhaul version on both PCs',
      );
      answerAndClose(socket, encodeFrame({ type: 'error', code: err.code, message: err.message }));
      return;
    }
    const gate = await passGate(socket, firstBytes, this.opts.security, deadline - Date.now(), () => ticket.advance('secure'));
    if (gate.kind === 'closed') {
      // The gate has destroyed it, or will once its refusal is flushed.
      if (!ticket.dropped) this.emit('rejected', peer, gate.reason);
      return;
    }
    const tlsSocket = gate.socket;
    this.sockets.add(tlsSocket);
    tlsSocket.once('close', () => this.sockets.delete(tlsSocket));
    if (this.active) {
      this.emit('rejected', peer, 'busy: a run is in progress');
      const err = new LonghaulError('LH_ERR_BUSY', 'this responder is running a test with another controller; try again when it ends');
      tlsSocket.once('close', ticket.release);
      answerAndClose(tlsSocket, encodeFrame({ type: 'error', code: err.code, message: err.message }));
      return;
    }
    ticket.release();
    // Put the first message back in front of whatever followed it, so the session reads them in order.
    tlsSocket.unshift(gate.firstBytes);
    this.startSession(tlsSocket, Buffer.alloc(0));
    tlsSocket.resume();
  }

  /** Set the listener's buffers for one run's data connections (they inherit them at accept). */
  private tuneListener(windowBytes: number): ListenerTuning {
    const native = nativeSockets();
    if (!native.api) return { applied: false, reason: native.reason, restore: () => null };
    return tuneListener(native.api, this.server, windowBytes);
  }

  /** Set the listener's MSS for one run's data connections (TCP_MAXSEG; they inherit it at accept). */
  private tuneListenerMss(bytes: number): ListenerMss {
    const native = nativeSockets();
    if (!native.api) return { setup: { requestedBytes: bytes, applied: false, reason: native.reason }, restore: () => null };
    return tuneListenerMss(native.api, this.server, bytes);
  }

  private startSession(socket: net.Socket, firstBytes: Buffer): void {
    const channel = new ControlChannel(socket, { role: 'responder', timeoutsMs: this.opts.timeoutsMs }, firstBytes);
    const session = new ResponderSession(channel, {
      limits: { ...DEFAULT_RESPONDER_LIMITS, ...this.opts.limits },
      timeoutsMs: this.opts.timeoutsMs,
      maxWorkersPerRole: this.opts.maxWorkersPerRole,
      tuneListener: (windowBytes) => this.tuneListener(windowBytes),
      tuneListenerMss: (bytes) => this.tuneListenerMss(bytes),
    });
    this.active = session;
    session.on('rejected', (peer, reason) => this.emit('rejected', peer, reason));
    session.once('end', (result, err) => {
      if (this.active === session) this.active = null;
      this.emit('session-end', result, err);
    });
    this.emit('session', session);
  }
}
