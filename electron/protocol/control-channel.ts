/**
 * A control connection: a socket, a FrameParser, the session state machine and
 * a read timeout for the current state. Emits validated messages; on any
 * protocol fault it answers with an `error` frame (where it can) and closes.
 * Its errors name the partner as the reports' headers do: `the responder lab-7
 * (192.0.2.7)` once its hello came (the address alone before), made printable.
 */
import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { LonghaulError, PeerError, ProtocolError, describeError } from '../util/errors.js';
import { printable } from '../util/printable.js';
import { partnerLabel } from '../contract/partner-label.js';
import { encodeFrame, FrameParser, DEFAULT_MAX_FRAME_BYTES } from './framing.js';
import { parseMessage, type Message } from './messages.js';
import { DEFAULT_STATE_TIMEOUTS_MS, SessionMachine, type Role, type SessionState } from './session-state.js';

export interface ControlChannelEvents {
  message: [Message];
  /** The peer answered our ping `id` (control-channel round trips; not a session message). */
  pong: [number];
  /** The session ended abnormally: protocol fault, timeout, peer gone, or peer's `error`. */
  failure: [LonghaulError];
  close: [];
}

interface ControlChannelOptions {
  role: Role;
  /**
   * The partner's address as the result records it (a controller: the host and port it was given), for its
   * errors; absent: the socket's (a controller adds the port it dialled, as `longhaul run HOST:PORT` names it).
   */
  partnerAddress?: string;
  maxFrameBytes?: number;
  timeoutsMs?: Partial<Record<SessionState, number>>;
}

/** Pings answered per second at most (a controller sends 2 a second while running). */
const MAX_PONGS_PER_SECOND = 16;

export class ControlChannel extends EventEmitter<ControlChannelEvents> {
  readonly machine: SessionMachine;
  private readonly socket: net.Socket;
  private readonly parser: FrameParser;
  private readonly timeouts: Record<SessionState, number>;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Pings answered in the current second: a peer may not make this end write without bound. */
  private pongs = { second: 0, count: 0 };
  /** The partner's role, and how its errors name it (`partnerLabel`). */
  private readonly partnerRole: Role;
  private partnerName: string | null = null;
  private readonly partnerAddress: string | undefined;

  constructor(socket: net.Socket, opts: ControlChannelOptions, alreadyRead?: Buffer) {
    super();
    this.socket = socket;
    this.machine = new SessionMachine(opts.role);
    this.partnerRole = opts.role === 'controller' ? 'responder' : 'controller';
    this.partnerAddress = opts.partnerAddress;
    this.parser = new FrameParser(opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
    this.timeouts = { ...DEFAULT_STATE_TIMEOUTS_MS, ...opts.timeoutsMs };
    socket.setNoDelay(true);
    socket.on('data', this.onData);
    socket.on('error', this.onSocketError);
    socket.on('close', this.onSocketClose);
    socket.on('end', this.onSocketEnd);
    this.armTimer();
    if (alreadyRead && alreadyRead.length) queueMicrotask(() => this.onData(alreadyRead));
  }

  get state(): SessionState {
    return this.machine.state;
  }

  /** This end's address of the control connection (where the peer reached us). */
  get localAddress(): string {
    return this.socket.localAddress ?? 'unknown';
  }

  get remoteAddress(): string {
    return this.socket.remoteAddress ?? 'unknown';
  }

  /** The partner as this channel's errors name it: `the responder lab-7 (192.0.2.7)`, or `the responder at 192.0.2.7` before its hello. */
  get partnerLabel(): string {
    const dialled =
      this.partnerRole === 'responder' && this.socket.remotePort !== undefined ? `${this.remoteAddress}:${this.socket.remotePort}` : this.remoteAddress;
    const address = printable(this.partnerAddress ?? dialled, 64);
    return partnerLabel(this.partnerRole, { hostname: this.partnerName ?? address, address });
  }

  /** Enter `state` and restart the read timeout for it. */
  enter(state: SessionState): void {
    this.machine.transition(state);
    this.armTimer();
  }

  /** Override the read timeout of a state (e.g. `running` scales with the interval). */
  setTimeout(state: SessionState, ms: number): void {
    this.timeouts[state] = ms;
    if (this.machine.state === state) this.armTimer();
  }

  send(message: Message): void {
    if (this.closed || this.socket.destroyed) return;
    this.socket.write(encodeFrame(message));
  }

  /** Tell the peer why, then close. Safe to call twice. */
  fail(err: LonghaulError, tellPeer = true): void {
    if (this.closed) return;
    if (tellPeer) this.send({ type: 'error', code: err.code, message: err.message });
    this.machine.transition('failed');
    this.close();
    this.emit('failure', err);
  }

  /** Graceful close: flush and FIN. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.clearTimer();
    this.socket.end();
    // A peer that never reads must not keep us half-open forever.
    setTimeout(() => this.socket.destroy(), 2000).unref();
  }

  /** Abort at once. Idempotent. */
  destroy(): void {
    this.closed = true;
    this.clearTimer();
    this.socket.destroy();
  }

  private armTimer(): void {
    this.clearTimer();
    const ms = this.timeouts[this.machine.state];
    if (!ms || this.closed) return;
    this.timer = setTimeout(this.onTimeout, ms);
    this.timer.unref?.();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly onTimeout = (): void => {
    const state = this.machine.state;
    this.fail(new PeerError('LH_ERR_TIMEOUT', `${this.partnerLabel} sent nothing for ${this.timeouts[state] / 1000} s in state "${state}"`));
  };

  private readonly onData = (chunk: Buffer): void => {
    if (this.closed) return;
    let messages: unknown[];
    try {
      messages = this.parser.push(chunk);
    } catch (err) {
      return this.fail(err as ProtocolError);
    }
    for (const raw of messages) {
      if (this.closed) return;
      let msg: Message;
      try {
        msg = parseMessage(raw);
        // Round-trip probes sit below the session: any state, no change of state, no proof of progress
        // (the read timeout is not re-armed, so pinging cannot hold a stuck session open).
        if (msg.type === 'ping' || msg.type === 'pong') {
          this.onProbe(msg);
          continue;
        }
        this.machine.check(msg.type);
      } catch (err) {
        return this.fail(err as ProtocolError);
      }
      this.armTimer();
      // Its host name, as its hello says it (peerText made it printable; printable again bounds it for a line).
      if (msg.type === 'hello') this.partnerName = printable(msg.hostname, 64);
      if (msg.type === 'error') {
        const code = msg.code as LonghaulError['code'];
        this.fail(new PeerError(code, `${this.partnerLabel}: ${msg.message}`), false);
        return;
      }
      this.emit('message', msg);
    }
  };

  private onProbe(m: Extract<Message, { type: 'ping' | 'pong' }>): void {
    if (m.type === 'pong') return void this.emit('pong', m.id);
    const second = Math.floor(Date.now() / 1000);
    if (this.pongs.second !== second) this.pongs = { second, count: 0 };
    if (++this.pongs.count <= MAX_PONGS_PER_SECOND) this.send({ type: 'pong', id: m.id });
  }

  private readonly onSocketError = (err: Error): void => {
    if (this.closed) return;
    this.fail(new PeerError('LH_ERR_PEER_GONE', `the control connection to ${this.partnerLabel} was lost: ${describeError(err).message}`), false);
  };

  private readonly onSocketEnd = (): void => {
    if (this.closed) return;
    if (this.machine.state === 'done') return this.close();
    this.fail(new PeerError('LH_ERR_PEER_GONE', `${this.partnerLabel} closed the control connection in state "${this.machine.state}"`), false);
  };

  private readonly onSocketClose = (): void => {
    this.clearTimer();
    if (!this.closed) {
      this.closed = true;
      if (this.machine.state !== 'done') {
        this.emit('failure', new PeerError('LH_ERR_PEER_GONE', `the control connection to ${this.partnerLabel} closed in state "${this.machine.state}"`));
      }
    }
    this.emit('close');
  };
}
