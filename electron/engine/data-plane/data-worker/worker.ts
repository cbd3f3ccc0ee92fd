/**
 * A data worker's streams of one role (send or receive), built from the
 * engine's init message: it connects or adopts them, starts and stops them,
 * samples them at each interval and reports their ends. The byte loops are
 * elsewhere (stream.ts lists them); everything here (sampling, TCP_INFO,
 * deadline, stop, results) is the same for every loop.
 *
 * Senders write one fixed buffer "from thin air" (ttcp style), honouring backpressure;
 * receivers read into one fixed buffer and count bytes and read completions.
 */
import net from 'node:net';
import os from 'node:os';
import type { TcpSample } from '../../../contract/result.js';
import { SEND_PATH_REASON_MAX_CHARS, type StreamSendPath } from '../../../contract/send-path.js';
import { nativeSockets } from '../../../native/load-native.js';
import type { NativeApi } from '../../../native/native-api.js';
import type { WindowSetup } from '../../../native/socket-report.js';
import { dataPath, dataPathFor, type DataConnChoice, type DataPath, type StreamIoChoice } from '../../../native/data-path.js';
import { dialOwned, ownedDialFailure } from '../../../native/owned-socket.js';
import type { StreamEnd } from '../../../protocol/messages.js';
import type { SendBacklog } from '../send-backlog.js';
import { boundSendBacklogs } from './backlog-bound.js';
import { ProcessCpuClock, threadsOf, type WorkerCpu } from '../cpu-use.js';
import { adoptedSetup, StreamSockets, type StreamTuning } from '../stream-socket.js';
import { ClampPoller } from '../../../native/advertised-window.js';
import type { FromWorker, ToWorker, WorkerInit, WorkerRole } from '../worker-messages.js';
import { drainSenders } from './drain.js';
import { NativeSocketLoop } from './native-loop.js';
import { NodeLoop, receiveOptions, watchSocket } from './node-loop.js';
import { WindowsOwnedLoop } from './windows-owned-loop.js';
import { PACING_KERNEL } from '../../../contract/pacing-info.js';
import { applyPacing } from './pacing.js';
import { applyCongestion } from './congestion.js';
import { TokenBucket } from './token-bucket.js';
import { watchStop } from './stop-watchdog.js';
import { Stream, systemClock, type Clock, type LoopHost } from './stream.js';
import { bytesAndCalls, leadIn } from './lead-in.js';

/** The largest read a receiver on Node's loop asks for, in bytes (see the constructor). The native loop reads `--buffer` bytes. */
const RECEIVE_BUFFER_MAX_BYTES = 128 * 1024;

/** How long an owned data connection may take to connect and send its header, ms. */
const OWNED_CONNECT_TIMEOUT_MS = 10_000;

/** What a worker runs on; all but `send` default to this process's own. */
interface WorkerDeps {
  send(msg: FromWorker): void;
  clock?: Clock;
  native?: NativeApi | null;
  /** Which byte loop streams start on (default: the data path's, native/data-path.ts). */
  io?: StreamIoChoice;
  /** Who owns data connections (default: the data path's). */
  dataConn?: DataConnChoice;
  warn?: (text: string) => void;
  /** CPUs this worker may keep busy (default: os.availableParallelism()). */
  cpus?: number;
}

export class DataWorker implements LoopHost {
  readonly role: WorkerRole;
  readonly native: NativeApi | null;
  readonly clock: Clock;
  /** Its stream sockets: dialled, described and sampled with `native`, clamps kept on `clock`. */
  readonly sockets: StreamSockets;
  readonly payload: Buffer;
  readonly send: (msg: FromWorker) => void;
  readonly warn: (text: string) => void;
  deadlineNs = 0n;
  started = false;
  stopping = false;
  private readonly recvBuffer: Buffer;
  private readonly ioChoice: StreamIoChoice;
  private readonly dataConn: DataConnChoice;
  /** How bytes move on this PC (native/data-path.ts), with this worker's addon. */
  private readonly path: DataPath;
  private readonly streams = new Map<number, Stream>();
  private startNs = 0n;
  private tickIndex = 0;
  private tickTimer: NodeJS.Timeout | null = null;
  private doneSent = false;
  /** This process's CPU over the transfer: from the start to the last stream's end. */
  private cpuClock: ProcessCpuClock | null = null;
  /** Bounds each sender's unsent kernel backlog (send-backlog.ts); null where the OS cannot, or the data path says unbounded. */
  private backlog: SendBacklog | null = null;
  /** Keeps the advertised-window clamp of its streams on `clock` (advertised-window.ts); closed when the results are out. */
  readonly clampPoller: ClampPoller;

  constructor(
    readonly init: WorkerInit,
    deps: WorkerDeps,
  ) {
    this.role = init.role;
    this.send = deps.send;
    this.clock = deps.clock ?? systemClock;
    const status =
      deps.native !== undefined ? { api: deps.native, reason: deps.native ? null : 'no native socket addon was given to this worker' } : nativeSockets();
    this.native = status.api;
    this.clampPoller = new ClampPoller(this.clock);
    this.sockets = new StreamSockets(this.native, status.reason, this.clampPoller);
    this.warn = deps.warn ?? ((text) => process.emitWarning(text));
    this.path = deps.native !== undefined ? dataPathFor(status) : dataPath();
    this.dataConn = deps.dataConn ?? this.path.conn;
    let io = deps.io ?? this.path.tcpIo;
    const cpus = deps.cpus ?? os.availableParallelism();
    // The native receive loop is one thread per stream: never more of them than CPUs, or a
    // 128-stream run starves everything else on the machine, the UI included (measured: the
    // Chromium chart's redraw went from <100 ms to 8 s). Beyond that, Node's one-thread loop.
    // (Owned sockets have no Node loop to fall back on: they keep their threads.)
    if (io.io === 'native' && this.dataConn.mode === 'node' && init.role === 'receive' && init.streams > cpus) {
      io = { io: 'node', reason: `${init.streams} receiving streams in one worker: more than the ${cpus} CPUs` };
    }
    this.ioChoice = io;
    this.payload = Buffer.alloc(init.bufferBytes, 0x5a);
    // Node's loop reads into at most RECEIVE_BUFFER_MAX_BYTES: a copy into a buffer larger than the CPU's cache is slower (docs/measurements.md#node-recv-buffer).
    this.recvBuffer = init.bufferBytes > RECEIVE_BUFFER_MAX_BYTES ? Buffer.alloc(RECEIVE_BUFFER_MAX_BYTES) : this.payload;
  }

  /** One message from the engine after init (`handle`: the socket an `adopt` carries). */
  handle(msg: Exclude<ToWorker, WorkerInit>, handle?: unknown): void {
    switch (msg.type) {
      case 'connect':
        return this.connect(this.newStream(msg.id, msg.bytes), msg.host, msg.port, Buffer.from(msg.headerB64, 'base64'));
      case 'adopt':
        return this.adopt(this.newStream(msg.id, msg.bytes, msg.capBytes), handle);
      case 'adopt-owned':
        return this.adoptOwned(this.newStream(msg.id, msg.bytes, msg.capBytes), msg.socketB64);
      case 'start':
        return this.start(BigInt(msg.startNs));
      case 'stop':
        return this.stop(msg.graceMs, msg.receiveTargets ? new Map(msg.receiveTargets) : null);
      case 'cut':
        return this.cut();
      case 'drain':
        return drainSenders(this, [...this.streams.values()], msg.timeoutMs);
    }
  }

  finish(s: Stream): void {
    if (s.finished) return;
    if (s.loop.running) {
      // Counts are final only once the loop has stopped; it calls back here.
      s.loop.stop();
      return;
    }
    s.finished = true;
    this.backlog?.remove(s.id);
    if (this.role === 'send' && s.lastNs === 0n) s.lastNs = this.clock.nowNs();
    s.loop.settle();
    const { bytes } = s.loop.counts();
    // A sender whose every byte was in the kernel when the peer closed lost nothing: its peer had them.
    if (s.peerClosed && !(this.role === 'send' && s.sentAll(bytes))) s.fail(`closed by ${this.init.partner} before the end of the run`);
    if (s.cap !== null && s.capReached(bytes)) this.send({ type: 'limit', id: s.id, bytes, capBytes: s.cap });
    this.maybeDone();
  }

  maybeDone(): void {
    if (this.doneSent || !this.started) return;
    for (const s of this.streams.values()) if (!s.finished) return;
    this.doneSent = true;
    if (this.tickTimer) this.clock.clearTimeout(this.tickTimer);
    const t = Number(this.clock.nowNs() - this.startNs) / 1e9;
    this.sample(this.tickIndex + 1, t, true);
    const ends: StreamEnd[] = [...this.streams.values()].map((s) => ({
      id: s.id,
      role: this.role,
      ...bytesAndCalls(s.loop.counts()),
      io: s.io,
      firstT: this.secondsSinceStart(s.firstNs),
      lastT: this.secondsSinceStart(s.lastNs),
      error: s.error,
      ...(s.report ? { socket: s.report } : {}),
      ...(s.pacing ? { pacing: s.pacing } : {}),
      ...(this.role === 'send' ? { sendPath: this.sendPathOf(s) } : {}),
    }));
    this.send({ type: 'done', streams: ends, ...(this.cpuClock ? { cpu: this.cpuUse(this.cpuClock) } : {}) });
    // Owned sockets stay open until now, so the final TCP_INFO could still be read.
    for (const s of this.streams.values()) s.loop.close();
    this.clampPoller.close();
  }

  /** A sender's call; why it copied is said only when -Z asked it not to. */
  private sendPathOf(s: Stream): StreamSendPath {
    const { path, reason } = s.loop.sendPath();
    return { path, reason: this.init.zeroCopy && path === 'copy' && reason ? reason.slice(0, SEND_PATH_REASON_MAX_CHARS) : null };
  }

  /** This worker's CPU since the start, and its loop threads'. */
  private cpuUse(clock: ProcessCpuClock): WorkerCpu {
    const { userSeconds, systemSeconds } = clock.elapsed();
    const streams = [...this.streams.values()].map((s) => ({ id: s.id, reading: s.thread, native: s.io === 'native' }));
    return { userSeconds, systemSeconds, threads: threadsOf(this.role === 'send' ? 'sender' : 'receiver', streams) };
  }

  private newStream(id: number, budget: number | null, cap: number | null = null): Stream {
    const s = new Stream(id, budget, this.ioChoice.io, cap);
    this.streams.set(id, s);
    return s;
  }

  /** A Node socket joins a stream, on the loop this worker chose. */
  private attach(s: Stream, socket: net.Socket): void {
    watchSocket(this, s, socket);
    s.loop = this.ioChoice.io === 'native' ? new NativeSocketLoop(this, s, socket) : new NodeLoop(this, s, socket, this.ioChoice.reason);
  }

  private connect(s: Stream, host: string, port: number, header: Buffer): void {
    if (this.dataConn.mode === 'owned') return this.connectOwned(s, host, port, header);
    const onread = this.role === 'receive' ? receiveOptions(this, s, this.recvBuffer) : undefined;
    this.sockets.dial(host, port, this.tuning(), onread).then(
      ({ socket, setup }) => {
        this.attach(s, socket);
        socket.once('connect', () => {
          s.report = this.sockets.report(socket, setup);
          socket.write(header);
          if (this.role === 'receive') s.loop.startReceiving();
          s.ready = true;
          this.send({ type: 'ready', id: s.id });
        });
      },
      (err: NodeJS.ErrnoException) => {
        this.send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: ${err.code ?? err.message}` });
      },
    );
  }

  private adopt(s: Stream, handle: unknown): void {
    // `handle` is accepted by net.Socket but missing from @types/node.
    const opts: net.SocketConstructorOpts & { handle: unknown; onread?: net.OnReadOpts } = { handle, readable: true, writable: true };
    if (this.role === 'receive') opts.onread = receiveOptions(this, s, this.recvBuffer);
    const socket = new net.Socket(opts);
    this.attach(s, socket);
    s.report = this.sockets.report(socket, adoptedSetup(this.tuning(), { window: this.init.listenerWindow, mss: this.init.listenerMss }));
    if (this.role === 'receive') s.loop.startReceiving();
    s.ready = true;
    this.send({ type: 'ready', id: s.id });
  }

  /** A socket the engine accepted on its owned data listener, duplicated for this process (Windows). */
  private adoptOwned(s: Stream, socketB64: string): void {
    let fd: number;
    try {
      const owned = this.native?.owned;
      if (!owned) throw new Error('the addon cannot own data connections');
      fd = owned.fromDuplicate(Buffer.from(socketB64, 'base64'));
    } catch (err) {
      this.send({
        type: 'stream-error',
        id: s.id,
        code: 'LH_ERR_DATA_STREAM',
        message: `stream ${s.id}: cannot open the accepted socket here: ${(err as Error).message}`,
      });
      return;
    }
    this.becomeOwned(s, fd, adoptedSetup(this.tuning(), { window: this.init.listenerWindow, mss: this.init.listenerMss }));
  }

  /** Controller side, owned connections: the addon connects with the window set and sends the header. */
  private connectOwned(s: Stream, host: string, port: number, header: Buffer): void {
    const api = this.native;
    if (!api) {
      this.send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: the native socket addon is not loaded` });
      return;
    }
    dialOwned(api, host, port, this.init.windowBytes, header, OWNED_CONNECT_TIMEOUT_MS, this.init.mssBytes).then(
      ({ fd, setup }) => {
        if (this.stopping) {
          api.closeFd(fd);
          this.send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: the run was stopped while it connected` });
          return;
        }
        this.becomeOwned(s, fd, setup);
      },
      (err: NodeJS.ErrnoException) => {
        this.send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: ${ownedDialFailure(host, port, err)}` });
      },
    );
  }

  /** A connected owned socket joins the run: described, its receiver loop started, announced. */
  private becomeOwned(s: Stream, fd: number, setup: WindowSetup): void {
    const owned = this.sockets.owned(fd, setup);
    s.report = owned.report;
    s.loop = new WindowsOwnedLoop(this, s, owned);
    if (this.role === 'receive' && !s.loop.startReceiving()) {
      this.send({
        type: 'stream-error',
        id: s.id,
        code: 'LH_ERR_DATA_STREAM',
        message: s.error?.message ?? `stream ${s.id}: the native byte loop could not start`,
      });
      return;
    }
    s.ready = true;
    this.send({ type: 'ready', id: s.id });
  }

  private start(startNs: bigint): void {
    this.startNs = startNs;
    this.started = true;
    this.cpuClock = new ProcessCpuClock();
    if (this.init.seconds !== null) this.deadlineNs = startNs + BigInt(Math.round(this.init.seconds * 1e9));
    this.scheduleTick();
    const cc = this.init.congestionControl;
    if (cc) for (const s of this.streams.values()) if (!s.finished) applyCongestion(this.native, s.loop.tcpFd(), cc, s.report);
    if (this.role === 'send') {
      this.backlog = boundSendBacklogs(this.path.sendBacklog.bounded ? this.native : null, this.streams, this.clock, this.init.bitrateBitsPerSec ?? null);
      this.pace();
      for (const s of this.streams.values()) s.pump();
    }
    this.maybeDone();
  }

  private stop(graceMs: number, receiveTargets: Map<number, number> | null): void {
    this.stopping = true;
    if (!this.started) {
      this.started = true;
      this.startNs = this.clock.nowNs();
    }
    for (const s of this.streams.values()) {
      if (!s.finished && this.role === 'send' && s.loop.connected) s.loop.endSending();
    }
    watchStop(this, [...this.streams.values()], graceMs, receiveTargets);
    this.maybeDone();
  }

  /**
   * The responder's limit ended the run: senders end their streams (our FIN), receivers stop
   * reading and close their connections now, whatever the peer still sends. A native loop ends
   * within its 50 ms poll and closes its descriptor then.
   */
  private cut(): void {
    this.stopping = true;
    if (!this.started) {
      this.started = true;
      this.startNs = this.clock.nowNs();
    }
    for (const s of this.streams.values()) {
      if (this.role === 'send' && s.loop.connected) {
        if (!s.finished) s.loop.endSending();
        continue;
      }
      // A receiver that stopped at its cap is finished but still connected: closed here too.
      if (!s.finished) s.error ??= { code: 'LH_ERR_RESPONDER_LIMIT', message: `stream ${s.id}: closed at this responder's limit` };
      s.loop.cut();
      this.finish(s);
    }
    this.maybeDone();
  }

  /** `--bitrate`: the kernel paces each sending stream where it can, else its byte loop does (pacing.ts). */
  private pace(): void {
    const bitsPerSec = this.init.bitrateBitsPerSec;
    if (!bitsPerSec) return;
    for (const s of this.streams.values()) {
      if (s.finished) continue;
      s.pacing = applyPacing(this.native, s.loop.tcpFd(), bitsPerSec, this.path.pacing);
      if (s.pacing.mechanism !== PACING_KERNEL) s.bucket = new TokenBucket(bitsPerSec / 8, this.clock.nowNs());
    }
  }

  private scheduleTick(): void {
    const intervalNs = BigInt(Math.round(this.init.intervalMs * 1e6));
    const due = this.startNs + BigInt(this.tickIndex + 1) * intervalNs;
    const waitMs = Math.max(0, Number(due - this.clock.nowNs()) / 1e6);
    this.tickTimer = this.clock.setTimeout(() => this.onTick(), waitMs);
  }

  private onTick(): void {
    this.tickIndex++;
    const now = this.clock.nowNs();
    const t = Number(now - this.startNs) / 1e9;
    this.sample(this.tickIndex, t, false);
    if (this.deadlineNs !== 0n && now >= this.deadlineNs && this.role === 'send') {
      for (const s of this.streams.values()) if (!s.finished) s.loop.endSending();
    }
    this.scheduleTick();
  }

  private sample(index: number, t: number, final: boolean): void {
    const lead = leadIn(this.role, index, this.streams.values(), this.startNs);
    this.send({ type: 'sample', index, t, final, streams: this.sampleStreams(), tcp: this.sampleTcp(index, t), ...lead });
  }

  private sampleStreams(): [number, number, number][] {
    return [...this.streams.values()].map((s) => {
      const c = s.loop.counts();
      return [s.id, c.bytes, c.completions];
    });
  }

  /** One TCP_INFO read per live stream: [id, sample] for those that answered. */
  private sampleTcp(index: number, t: number): [number, TcpSample][] {
    const out: [number, TcpSample][] = [];
    for (const s of this.streams.values()) {
      s.tcp = s.loop.sample(index, t) ?? s.tcp;
      if (s.tcp) out.push([s.id, s.tcp]);
    }
    return out;
  }

  private secondsSinceStart(ns: bigint): number | null {
    return ns === 0n ? null : Number(ns - this.startNs) / 1e9;
  }

  /** What this run asks of every stream socket before its handshake. */
  private tuning(): StreamTuning {
    return { windowBytes: this.init.windowBytes, mssBytes: this.init.mssBytes ?? null };
  }
}
