/**
 * What a session needs of its control connection and of its data plane: the control channel
 * (protocol/control-channel.ts) and engine/data-plane's DataPlane in a run, fakes in the unit
 * tests (test/engine/session/*-states.test.ts), so each side's state machine runs without sockets.
 */
import type { ControlChannel, ControlChannelEvents } from '../../protocol/control-channel.js';
import type { MessageOf } from '../../protocol/messages.js';
import type { DataPlane, DataPlaneEvents } from '../data-plane/data-plane.js';
import type { DataPlaneOptions } from '../data-plane/data-plane-options.js';
import type { PlannedStream } from '../../contract/stream-plan.js';
import type { RunParams } from '../../protocol/run-params.js';
import type { RunLinkHook } from './run-handle.js';

/** The control channel as a session uses it. */
export interface SessionChannel extends Pick<
  ControlChannel,
  'state' | 'localAddress' | 'remoteAddress' | 'partnerLabel' | 'enter' | 'setTimeout' | 'send' | 'fail' | 'close' | 'destroy'
> {
  on<K extends keyof ControlChannelEvents>(event: K, listener: (...args: ControlChannelEvents[K]) => void): unknown;
}

/**
 * A data connection that reached the responder and says which run and stream it is for (its
 * header): on the shared control port (a Node handle) or on the run's own listener (a descriptor
 * the addon accepted). The session checks the header; the variant knows how to hand it over.
 */
export interface IncomingData {
  /** The data header's bytes (protocol/data-header.ts). */
  readonly header: Buffer;
  /** `address:port` of the connecting end, for messages. */
  readonly peer: string;
  /** Give the connection to the worker of stream `id`; this process keeps no copy. */
  handOver(plane: DataPlane, id: number): Promise<void>;
  /** Close it: not this run's, or not wanted. */
  refuse(): void;
}

/** Where and how the controller opens its streams (controller-streams.ts). */
export interface StreamsContext {
  host: string;
  port: number;
  link?: RunLinkHook;
  params: RunParams;
  plan: readonly PlannedStream[];
  cookie: string;
  channel: SessionChannel;
}

/** What a session does with its data plane. */
export interface SessionPlane extends Pick<DataPlane, 'start' | 'stop' | 'cut' | 'destroy' | 'cpu'> {
  on<K extends keyof DataPlaneEvents>(event: K, listener: (...args: DataPlaneEvents[K]) => void): unknown;
  once<K extends keyof DataPlaneEvents>(event: K, listener: (...args: DataPlaneEvents[K]) => void): unknown;
  /** Controller: open this side's streams once the responder accepted the params. */
  openStreams(ok: MessageOf<'params-ok'>, c: StreamsContext): Promise<void>;
  /** Responder, TCP: take a data connection for stream `id`. */
  take(id: number, c: IncomingData): Promise<void>;
  /** Responder, UDP: bind this side's sockets; `connected` settles once each of its senders heard its receiver. */
  bindUdp(host: string, cookie: string): Promise<{ ports: [number, number][]; connected: Promise<void> }>;
  /** UDP: the peer's senders are done (its last sequence numbers). */
  peerSendersDone(lastSeq: readonly [number, number][]): void;
}

/** How a session makes its data plane (a fake in unit tests). */
export type PlaneFactory = (opts: DataPlaneOptions) => SessionPlane;
