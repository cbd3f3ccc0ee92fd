/**
 * One data stream of a worker, and the `StreamLoop` that moves its bytes.
 *
 * The stream keeps what every loop shares (its counts so far, first/last byte
 * times, error, socket report, latest TCP_INFO); the loop is one of:
 * - `NodeLoop` (node-loop.ts): Node's socket writes and `onread` reads;
 * - `NativeSocketLoop` (native-loop.ts): the addon's byte loop on a dup of a Node socket (POSIX);
 * - `WindowsOwnedLoop` (windows-owned-loop.ts): the addon's byte loop on a socket the addon owns (Windows);
 * - `PendingLoop` (below): not connected yet, nothing to move.
 * A native loop that cannot start on a Node socket hands the stream to a `NodeLoop`
 * (fallBackToNode); the stream's `io` says which loop moved it.
 */
import type { SocketReport, StreamPacing, TcpSample } from '../../../contract/result.js';
import type { NativeApi } from '../../../native/native-api.js';
import type { StreamIo } from '../../../native/data-path.js';
import type { ThreadCpuReading } from '../cpu-use.js';
import type { FromWorker, WorkerInit, WorkerRole } from '../worker-messages.js';
import type { TokenBucket } from './token-bucket.js';
import type { StreamSockets } from '../stream-socket.js';
import type { LonghaulErrorCode } from '../../../contract/error-codes.js';
import type { StreamSendPath } from '../../../contract/send-path.js';

interface StreamError {
  code: LonghaulErrorCode;
  message: string;
}

/** Bytes that have left for the kernel (send) or arrived (receive), and write/read completions. */
export interface Counts {
  bytes: number;
  completions: number;
  /** When the first byte moved (receive: was read), on the worker's clock; 0n: none yet. */
  firstNs: bigint;
}

/** The byte loop of one stream. */
export interface StreamLoop {
  /** Which loop this is, as results record it. */
  readonly io: StreamIo;
  /** A socket exists (connected, adopted or owned): a stopping sender ends only these. */
  readonly connected: boolean;
  /** A native thread still moves bytes: counts are not final until it ends (stop() asks it to). */
  readonly running: boolean;
  /** The stream's counts so far, this loop's share included. */
  counts(): Counts;
  /** Receiver, once connected: hand the bytes to the loop. False: the stream cannot run. */
  startReceiving(): boolean;
  /** Sender: write (at the start, and again whenever the socket can take more). */
  pump(): void;
  /** Sender: stop writing, send our FIN after the last byte; the stream finishes when that is done. */
  endSending(): void;
  /** Ask a running native thread to end; it finishes the stream when it has. */
  stop(): void;
  /** Cut the stream now (the stop watchdog gave up on it). */
  cut(): void;
  /** The descriptor for TCP_INFO while the socket is open, else null. */
  tcpFd(): number | null;
  /** TCP_INFO at a tick; null when the socket cannot say (closed, no addon). */
  sample(index: number, t: number): TcpSample | null;
  /** Sender: which call moved its bytes, and why it copied (the worker keeps the reason only when -Z was asked). */
  sendPath(): StreamSendPath;
  /** The stream finishes: fix its counts for good (a failed sender counts only what reached the kernel). */
  settle(): void;
  /** After the results are out: let go of what the loop still holds. */
  close(): void;
}

/** The clock and timers a worker runs on (tests drive them with node:test's mock timers). */
export interface Clock {
  /** Now on process.hrtime.bigint()'s clock (the engine's start time is on it). */
  nowNs(): bigint;
  setTimeout(fn: () => void, ms: number): NodeJS.Timeout;
  clearTimeout(t: NodeJS.Timeout): void;
  setInterval(fn: () => void, ms: number): NodeJS.Timeout;
  clearInterval(t: NodeJS.Timeout): void;
}

/** The real clock; timers looked up at each call, so mocked globals apply. */
export const systemClock: Clock = {
  nowNs: () => process.hrtime.bigint(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (t) => clearTimeout(t),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (t) => clearInterval(t),
};

/** What a loop needs of the worker that runs it. */
export interface LoopHost {
  readonly init: WorkerInit;
  readonly role: WorkerRole;
  readonly native: NativeApi | null;
  readonly clock: Clock;
  /** The worker's stream sockets (TCP_INFO reads, clamps kept). */
  readonly sockets: StreamSockets;
  /** The one buffer every sender writes (ttcp style). */
  readonly payload: Buffer;
  /** Senders stop writing here (0n: no deadline, a byte budget instead). */
  readonly deadlineNs: bigint;
  /** The engine said start (or stop before any start). */
  readonly started: boolean;
  /** The engine asked to stop. */
  readonly stopping: boolean;
  send(msg: FromWorker): void;
  /** Say something worth knowing on stderr (process.emitWarning). */
  warn(text: string): void;
  /** The stream has ended (or failed): it counts for the results once its loop is done. */
  finish(s: Stream): void;
  /** Send the results if every stream has finished. */
  maybeDone(): void;
}

/** A stream socket's failure in words, naming the partner: `the data connection with the responder lab-7 (192.0.2.7:5211) failed: ECONNRESET`. */
export function connectionFailure(host: Pick<LoopHost, 'init'>, err: NodeJS.ErrnoException): string {
  return `the data connection with ${host.init.partner} failed: ${err.code ?? err.message}`;
}

export class Stream {
  bytes = 0;
  completions = 0;
  firstNs = 0n;
  lastNs = 0n;
  /** Connected (or adopted) and announced to the engine. */
  ready = false;
  finished = false;
  /**
   * The connection closed before this side ended the stream. Whether that was early is judged
   * once the counts are final (worker.ts finish): a sender's byte loop may have handed the kernel
   * every byte before its peer closed, and only tells so when it ends.
   */
  peerClosed = false;
  error: StreamError | null = null;
  /** The socket as set up (buffers, MSS, window scale), once connected. */
  report: SocketReport | null = null;
  /** Latest TCP_INFO reading. */
  tcp: TcpSample | null = null;
  /** The native loop thread that moved its bytes and that thread's CPU clock, once the loop has ended (null: none, or an older addon). */
  thread: ThreadCpuReading | null = null;
  loop: StreamLoop;
  /** Sender with `--bitrate`: how it is paced (null: unpaced). */
  pacing: StreamPacing | null = null;
  /** Longhaul's own pacing, when the kernel does not pace this stream: the byte loop draws on it. */
  bucket: TokenBucket | null = null;
  /** Pump through whichever loop the stream has now (a 'drain' listener outlives a fallback). */
  readonly pump = (): void => this.loop.pump();

  constructor(
    readonly id: number,
    readonly budget: number | null,
    io: StreamIo,
    /** The most this stream may move whatever the peer does (the responder's share of --max-bytes); null: no cap. */
    readonly cap: number | null = null,
  ) {
    this.loop = new PendingLoop(this, io);
  }

  /** The bytes this stream stops at: its budget or its cap, whichever is less; null: neither. */
  get byteLimit(): number | null {
    if (this.cap === null) return this.budget;
    return this.budget === null ? this.cap : Math.min(this.budget, this.cap);
  }

  /** The cap, not the plan, stopped this stream: it reached a cap below its budget. */
  capReached(bytes: number): boolean {
    return this.cap !== null && bytes >= this.cap && (this.budget === null || this.cap < this.budget);
  }

  get io(): StreamIo {
    return this.loop.io;
  }

  /** A sender that handed the kernel its whole budget (`bytes`: its final count). */
  sentAll(bytes: number): boolean {
    return this.byteLimit !== null && bytes >= this.byteLimit;
  }

  fail(message: string): void {
    this.error ??= { code: 'LH_ERR_DATA_STREAM', message: `stream ${this.id}: ${message}` };
  }
}

/** A stream not connected yet: it has moved nothing, and has nothing to stop or sample. */
class PendingLoop implements StreamLoop {
  readonly connected = false;
  readonly running = false;
  constructor(
    private readonly s: Stream,
    readonly io: StreamIo,
  ) {}
  counts(): Counts {
    return { bytes: this.s.bytes, completions: this.s.completions, firstNs: this.s.firstNs };
  }
  startReceiving(): boolean {
    return false;
  }
  pump(): void {}
  endSending(): void {}
  stop(): void {}
  cut(): void {}
  tcpFd(): number | null {
    return null;
  }
  sample(): TcpSample | null {
    return null;
  }
  sendPath(): StreamSendPath {
    return { path: 'copy', reason: 'the stream never connected' };
  }
  settle(): void {}
  close(): void {}
}
