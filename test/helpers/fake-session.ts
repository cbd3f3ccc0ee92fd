/**
 * A control channel and a data plane without sockets or workers, for driving a session's state
 * machine in unit tests (test/engine/session/controller.test.ts, responder-session.test.ts). The
 * fake channel keeps the protocol's own state machine (protocol/session-state.ts): a message the
 * real channel would refuse in its state is refused here the same way.
 */
import { EventEmitter } from 'node:events';
import type { ControlChannelEvents } from '../../electron/protocol/control-channel.js';
import type { Message, MessageOf, MessageType, StreamEnd } from '../../electron/protocol/messages.js';
import { SessionMachine, type Role, type SessionState } from '../../electron/protocol/session-state.js';
import { LonghaulError, PeerError } from '../../electron/util/errors.js';
import type { DataPlaneEvents } from '../../electron/engine/data-plane/data-plane.js';
import type { IncomingData, SessionChannel, SessionPlane } from '../../electron/engine/session/session-channel.js';
import type { CpuUse } from '../../electron/contract/cpu-info.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';

/** The cookie of every fake run (32 hex digits, as the controller makes them). */
export const COOKIE = '00112233445566778899aabbccddeeff';

export class FakeChannel extends EventEmitter<ControlChannelEvents> implements SessionChannel {
  readonly machine: SessionMachine;
  readonly sent: Message[] = [];
  readonly timeouts = new Map<SessionState, number>();
  readonly localAddress = '127.0.0.1';
  readonly remoteAddress = '127.0.0.2';
  readonly partnerLabel = 'the partner at 127.0.0.2';
  closed = false;
  destroyed = false;

  constructor(role: Role) {
    super();
    this.machine = new SessionMachine(role);
  }

  get state(): SessionState {
    return this.machine.state;
  }

  enter(state: SessionState): void {
    this.machine.transition(state);
  }

  setTimeout(state: SessionState, ms: number): void {
    this.timeouts.set(state, ms);
  }

  send(message: Message): void {
    if (!this.closed) this.sent.push(message);
  }

  fail(err: LonghaulError, tellPeer = true): void {
    if (this.closed) return;
    if (tellPeer) this.send({ type: 'error', code: err.code, message: err.message });
    this.machine.transition('failed');
    this.closed = true;
    this.emit('failure', err);
  }

  close(): void {
    this.closed = true;
  }

  destroy(): void {
    this.closed = true;
    this.destroyed = true;
  }

  /** The peer's message arrives: checked against the protocol's table as the real channel checks it. */
  deliver(m: Message): void {
    if (this.closed) return;
    try {
      this.machine.check(m.type);
    } catch (err) {
      return this.fail(err as LonghaulError);
    }
    if (m.type === 'error') return this.fail(new PeerError(m.code as LonghaulError['code'], `peer: ${m.message}`), false);
    this.emit('message', m);
  }

  /** The peer vanished (its connection reset). */
  gone(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('failure', new PeerError('LH_ERR_PEER_GONE', `control connection lost in state "${this.state}"`));
  }

  /** The state's read timeout ran out. */
  timeout(): void {
    this.fail(new PeerError('LH_ERR_TIMEOUT', `the peer sent nothing in state "${this.state}"`));
  }

  /** The messages sent, by type. */
  types(): MessageType[] {
    return this.sent.map((m) => m.type).filter((t) => t !== 'ping');
  }

  lastOf<T extends MessageType>(type: T): MessageOf<T> | undefined {
    return this.sent.filter((m): m is MessageOf<T> => m.type === type).at(-1);
  }
}

export class FakePlane extends EventEmitter<DataPlaneEvents> implements SessionPlane {
  startNs: bigint | null = null;
  readonly stops: number[] = [];
  cuts = 0;
  destroyed = false;
  readonly taken: number[] = [];
  readonly udpEnds: (readonly [number, number][])[] = [];
  openCalls = 0;
  cpu: CpuUse | null = null;
  /** What openStreams / bindUdp resolve with (replace to make them fail or wait). */
  opening: Promise<void> = Promise.resolve();
  /** Each of this side's UDP senders heard its receiver (bindUdp's `connected` settles). */
  hearUdp!: () => void;
  private readonly udpConnected = new Promise<void>((resolve) => (this.hearUdp = resolve));

  openStreams(): Promise<void> {
    this.openCalls++;
    return this.opening;
  }

  async take(id: number): Promise<void> {
    this.taken.push(id);
  }

  async bindUdp(): Promise<{ ports: [number, number][]; connected: Promise<void> }> {
    return { ports: [[0, 40_000]], connected: this.udpConnected };
  }

  peerSendersDone(lastSeq: readonly [number, number][]): void {
    this.udpEnds.push(lastSeq);
  }

  start(startNs: bigint): void {
    this.startNs = startNs;
  }

  stop(graceMs: number): void {
    this.stops.push(graceMs);
  }

  cut(): void {
    this.cuts++;
  }

  destroy(): void {
    this.destroyed = true;
  }

  /** This side's streams end, each with `bytes`. */
  end(role: 'send' | 'receive', bytes = 1_000_000, ids = [0]): void {
    this.emit(
      'done',
      ids.map((id) => streamEnd(id, role, bytes)),
    );
  }
}

export function streamEnd(id: number, role: 'send' | 'receive', bytes: number): StreamEnd {
  return { id, role, bytes, completions: bytes > 0 ? 1 : 0, firstT: 0, lastT: 1, error: null };
}

/** A data connection as the responder sees it: its header, and whether it was refused. */
export function incoming(header: Buffer): IncomingData & { refused: boolean } {
  const c = {
    header,
    peer: '127.0.0.2:50000',
    refused: false,
    handOver: async () => undefined,
    refuse: () => {
      c.refused = true;
    },
  };
  return c;
}

/** Let promise callbacks run (a fake's resolved promises, the session's `.then`s). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

/** A message of each type, well-formed, for the every-state-by-every-message tests. */
export function messageOf(type: MessageType, ends: 'send' | 'receive' = 'receive'): Message {
  switch (type) {
    case 'hello':
      return { type, protocol: 1, software: 'fake', hostname: 'fake-pc', capabilities: [] };
    case 'params':
      return { type, cookie: COOKIE, params: { ...DEFAULT_PARAMS, seconds: 10, intervalSeconds: 1 } };
    case 'params-ok':
      return { type };
    case 'streams-ready':
    case 'start':
    case 'started':
    case 'done':
      return { type };
    case 'sample':
      return { type, index: 1, t: 1, final: false, streams: [[0, 1000, 0]] };
    case 'udp-end':
      return { type, lastSeq: [[0, 10]] };
    case 'stop':
      return { type, reason: 'complete', message: null };
    case 'results':
      return { type, streams: [streamEnd(0, ends, 1_000_000)], partial: false, reason: null };
    case 'error':
      return { type, code: 'LH_ERR_IO', message: 'fake' };
    case 'ping':
      return { type, id: 1 };
    case 'pong':
      return { type, id: 1 };
  }
}
