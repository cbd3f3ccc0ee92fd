/**
 * A data worker: a child process that owns some data streams of one role
 * (send or receive) and nothing else, so the sender, the receiver and the
 * control/UI loop never share an event loop (measured: Node's net in one
 * process caps near 12 Gbit/s on loopback; in separate processes it reaches
 * about iperf3's rate).
 *
 * Senders write one fixed buffer "from thin air" (ttcp style), honouring
 * backpressure; receivers read into one fixed buffer and count bytes and read
 * completions. Two byte loops do that (electron/native/stream-io.ts): the
 * addon's native loop, one thread per stream (send/recv; the default
 * wherever the addon is built), or Node's socket writes and `onread` reads.
 * Everything else (sampling, TCP_INFO, deadline, stop, results) is the same for both.
 *
 * A stream's socket is either Node's (net.Socket; the native loop works on a
 * dup of its descriptor) or, where Node cannot expose one (Windows), owned by
 * the addon from the SYN to the close (native/data-conn.ts): then `owned` holds
 * it, the native loop is its only reader and writer, and this worker sends its
 * FIN and closes it.
 */
import net from 'node:net';
import os from 'node:os';
import type { SocketReport, TcpSample } from '../contract/result.js';
import { nativeSockets } from '../native/load-native.js';
import type { NativePump, PumpEndReason } from '../native/native-api.js';
import { chooseStreamIo, type StreamIo, type StreamIoChoice } from '../native/stream-io.js';
import { socketFd } from '../native/tuned-socket.js';
import { chooseDataConn, type DataConnChoice } from '../native/data-conn.js';
import { dialOwned, ownedDialFailure } from '../native/owned-socket.js';
import type { StreamEnd } from '../protocol/messages.js';
import { SendBacklog } from './send-backlog.js';
import { adoptedSetup, dialStream, ownedStream, reportSocket, sampleSocket, type OwnedStream, type StreamTuning } from './stream-socket.js';
import type { FromWorker, ToWorker, WorkerInit } from './worker-messages.js';

/** The largest read a receiver on Node's loop asks for, in bytes (see init). The native loop reads `--buffer` bytes. */
const RECEIVE_BUFFER_MAX_BYTES = 128 * 1024;

/** How long an owned data connection may take to connect and send its header, ms. */
const OWNED_CONNECT_TIMEOUT_MS = 10_000;

/** Writes per event-loop turn before yielding, so timers (samples, deadline) still run. */
const WRITES_PER_TURN = 16;

interface StreamState {
  id: number;
  socket: net.Socket | null;
  /** The addon-owned socket, where this stream has one instead of `socket`. */
  owned: OwnedStream | null;
  budget: number | null;
  /** Bytes handed to socket.write (send) or received (receive). */
  bytes: number;
  completions: number;
  firstNs: bigint;
  lastNs: bigint;
  /** Connected (or adopted) and announced to the engine. */
  ready: boolean;
  finished: boolean;
  error: { code: string; message: string } | null;
  pump: () => void;
  /** The socket as set up (buffers, MSS, window scale), once connected. */
  report: SocketReport | null;
  /** Latest TCP_INFO reading. */
  tcp: TcpSample | null;
  /** Which byte loop moves this stream's bytes. */
  io: StreamIo;
  /** The native loop, once started; its counters add to `bytes`/`completions` above. */
  native: NativePump | null;
  nativeRunning: boolean;
}

let init: WorkerInit | null = null;
let recvBuffer: Buffer = Buffer.alloc(0);
let payload: Buffer = Buffer.alloc(0);
let startNs = 0n;
let deadlineNs = 0n;
let started = false;
let stopping = false;
let tickIndex = 0;
let tickTimer: NodeJS.Timeout | null = null;
let doneSent = false;
let ioChoice: StreamIoChoice = { io: 'node', reason: null };
let dataConn: DataConnChoice = { mode: 'node', reason: null };

const streams = new Map<number, StreamState>();
/** Bounds each sender's unsent kernel backlog (send-backlog.ts); null where the OS cannot, or LONGHAUL_SEND_BACKLOG=unbounded. */
let backlog: SendBacklog | null = null;

function send(msg: FromWorker): void {
  if (process.connected) process.send!(msg);
}

function secondsSinceStart(ns: bigint): number | null {
  return ns === 0n ? null : Number(ns - startNs) / 1e9;
}

/** Bytes that have left for the kernel (send) or arrived (receive), and write/read completions. */
function counts(s: StreamState): { bytes: number; completions: number } {
  if (s.native) {
    const [bytes, completions] = s.native.snapshot();
    // A receiver's socket may have read a little through Node before its native loop took over.
    return { bytes: s.bytes + bytes, completions: s.completions + completions };
  }
  if (init!.role === 'receive' || !s.socket) return { bytes: s.bytes, completions: s.completions };
  return { bytes: s.bytes - (s.socket.destroyed ? 0 : s.socket.writableLength), completions: s.completions };
}

function countedBytes(s: StreamState): number {
  return counts(s).bytes;
}

/** Fold the native loop's first/last byte times into the stream's (receive: first and last read). */
function foldNativeTimes(s: StreamState): void {
  if (!s.native) return;
  const [, , firstNs, lastNs] = s.native.snapshot();
  if (firstNs !== 0n && (s.firstNs === 0n || firstNs < s.firstNs)) s.firstNs = firstNs;
  if (init!.role === 'receive' && lastNs > s.lastNs) s.lastNs = lastNs;
}

function newStream(id: number, budget: number | null): StreamState {
  const s: StreamState = {
    id, socket: null, owned: null, budget, bytes: 0, completions: 0, firstNs: 0n, lastNs: 0n,
    ready: false, finished: false, error: null, pump: () => pumpStream(s), report: null, tcp: null,
    io: ioChoice.io, native: null, nativeRunning: false,
  };
  streams.set(id, s);
  return s;
}

function receiveOptions(s: StreamState): net.OnReadOpts {
  return {
    buffer: recvBuffer,
    callback(n: number): boolean {
      const now = process.hrtime.bigint();
      if (s.firstNs === 0n) s.firstNs = now;
      s.lastNs = now;
      s.bytes += n;
      s.completions++;
      return true;
    },
  };
}

function attach(s: StreamState, socket: net.Socket): void {
  s.socket = socket;
  socket.on('error', (err: NodeJS.ErrnoException) => {
    if (!s.ready) {
      send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: ${err.code ?? err.message}` });
    }
    if (!s.finished) {
      s.error = { code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: ${err.code ?? err.message}` };
      finishStream(s);
    }
  });
  socket.on('close', () => {
    if (s.ready && !started) {
      // The peer turned this connection away (or died) before the start: say so now, not after a timeout.
      send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: the responder closed the data connection before the run started` });
    }
    if (!s.finished) {
      s.error ??= { code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: closed by the peer before the end of the run` };
      finishStream(s);
    }
  });
  if (init!.role === 'receive') {
    socket.on('end', () => {
      finishStream(s);
      socket.end();
    });
  } else {
    // A sender expects nothing from the peer but its FIN; drain anything else.
    socket.on('end', () => socket.end());
  }
}

/**
 * Hand a stream's bytes to the native loop: sender at the start, receiver as soon as it is
 * connected. Returns false (and the stream stays on Node's loop) when the loop cannot start.
 */
function startNative(s: StreamState): boolean {
  const api = nativeSockets().api;
  const fd = s.owned ? s.owned.fd : s.socket ? socketFd(s.socket) : null;
  if (!api || fd === null) return fallBackToNode(s, fd === null ? 'the socket has no descriptor' : 'the addon is not loaded');
  const role = init!.role;
  try {
    s.native = api.startPump(fd, {
      role,
      // One write or one read of `--buffer` bytes, as the CLI promises. (Node's loop reads at most
      // 128 KiB; the native loop does not need that cap: 2 x 1 MiB on loopback went from ~0.9 to
      // ~1.4 x iperf3 -P 2 with 1 MiB reads, since batched reads wake the reader once per buffer.)
      bufferBytes: init!.bufferBytes,
      ...(role === 'send' && s.budget !== null ? { budgetBytes: s.budget } : {}),
      ...(role === 'send' && deadlineNs !== 0n ? { deadlineNs } : {}),
      // Batching holds up to ~250 µs of data in the kernel: never when the user set a window to test.
      ...(role === 'receive' ? { batchReads: init!.windowBytes === null } : {}),
    }, (err, reason) => onNativeDone(s, err, reason));
  } catch (err) {
    return fallBackToNode(s, (err as Error).message);
  }
  if (!s.native) return fallBackToNode(s, 'this build of the addon has no byte loop');
  s.nativeRunning = true;
  // Node must not read this socket any more: the native loop is its only reader (receive) and
  // Node only watches for the peer's FIN (send).
  if (role === 'receive') s.socket?.pause();
  return true;
}

function fallBackToNode(s: StreamState, why: string): false {
  if (s.owned) {
    // Node has no handle on an owned socket: without the native loop the stream cannot run.
    s.error ??= { code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: the native byte loop could not start: ${why}` };
    finishStream(s);
    return false;
  }
  s.io = 'node';
  process.emitWarning(`longhaul: stream ${s.id} moves its bytes through Node: ${why}`);
  return false;
}

function onNativeDone(s: StreamState, err: NodeJS.ErrnoException | null, reason: PumpEndReason): void {
  s.nativeRunning = false;
  foldNativeTimes(s);
  if (s.owned) return onOwnedDone(s, s.owned, err, reason);
  const socket = s.socket!;
  if (err) {
    s.error ??= { code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: ${err.code ?? err.message}` };
    socket.destroy();
    finishStream(s);
    return;
  }
  if (init!.role === 'send') {
    // Budget, deadline or stop: the kernel has every byte counted; send our FIN.
    if (!s.finished) endSender(s);
    else maybeDone();
    return;
  }
  if (reason === 'eof') {
    finishStream(s);
    // Node never saw the FIN (it was not reading): answer it and let go of the socket.
    if (!socket.destroyed) socket.end(() => socket.destroy());
    return;
  }
  // Stopped: the stream was cut (watchdog) or failed; finishStream is waiting for us.
  finishStream(s);
}

/**
 * An owned stream's loop ended: a sender (budget, deadline, stop) sends its FIN; a receiver
 * answers the peer's FIN with its own. The socket stays open, so the final TCP_INFO can
 * still be read, until the worker's results are out (closeOwned).
 */
function onOwnedDone(s: StreamState, owned: OwnedStream, err: NodeJS.ErrnoException | null, reason: PumpEndReason): void {
  if (err) {
    s.error ??= { code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: ${err.code ?? err.message}` };
  } else if (init!.role === 'send' || reason === 'eof') {
    if (init!.role === 'send') s.lastNs = process.hrtime.bigint();
    try {
      nativeSockets().api!.owned!.shutdownSend(owned.fd);
    } catch (e) {
      // The peer reset the connection after our last byte: the bytes counted are in its kernel or lost with it.
      if (init!.role === 'send') s.error ??= { code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: ${(e as Error).message}` };
    }
  }
  finishStream(s);
}

/** Close every owned socket whose loop has ended (after the results are out). */
function closeOwned(): void {
  for (const s of streams.values()) if (s.owned && !s.nativeRunning) s.owned.close();
}

function pumpStream(s: StreamState): void {
  if (s.owned) {
    // The header went out with the connect; only the native loop can move the bytes.
    if (!s.native && !s.finished) startNative(s);
    return;
  }
  if (s.io === 'native') {
    if (!s.native && s.socket && !s.finished) {
      // The data header must be on the wire before the first payload byte.
      if (s.socket.writableLength > 0) s.socket.once('drain', s.pump);
      else if (startNative(s)) return;
      else return pumpStream(s);
    }
    return;
  }
  const socket = s.socket;
  if (!socket || s.finished || socket.writableEnded) return;
  // Also checked on resume after 'drain': a window-limited sender is always back-pressured and would overrun the deadline.
  if (deadlineNs !== 0n && process.hrtime.bigint() >= deadlineNs) return endSender(s);
  for (let n = 0; ; n++) {
    if (stopping) return endSender(s);
    let chunk = payload;
    if (s.budget !== null) {
      const left = s.budget - s.bytes;
      if (left <= 0) return endSender(s);
      if (left < chunk.length) chunk = payload.subarray(0, left);
    }
    if (s.firstNs === 0n) s.firstNs = process.hrtime.bigint();
    const ok = socket.write(chunk);
    s.bytes += chunk.length;
    s.completions++;
    if (!ok) {
      socket.once('drain', s.pump);
      return;
    }
    if (n >= WRITES_PER_TURN) {
      if (deadlineNs !== 0n && process.hrtime.bigint() >= deadlineNs) return endSender(s);
      setImmediate(s.pump);
      return;
    }
  }
}

function endSender(s: StreamState): void {
  if (s.nativeRunning) {
    // The loop ends within 50 ms and comes back here through onNativeDone.
    s.native!.stop();
    return;
  }
  if (s.owned) {
    // Stopped before its loop ever ran.
    if (!s.finished) onOwnedDone(s, s.owned, null, 'stopped');
    return;
  }
  const socket = s.socket!;
  if (socket.writableEnded) return;
  socket.end(() => {
    s.lastNs = process.hrtime.bigint();
    finishStream(s);
  });
}

function finishStream(s: StreamState): void {
  if (s.finished) return;
  if (s.nativeRunning) {
    // Counts are final only once the loop has stopped; onNativeDone calls back here.
    s.native!.stop();
    return;
  }
  s.finished = true;
  backlog?.remove(s.id);
  if (init!.role === 'send' && s.lastNs === 0n) s.lastNs = process.hrtime.bigint();
  if (s.error && init!.role === 'send' && s.socket) {
    // Only what reached the kernel counts.
    s.bytes = Math.max(0, s.bytes - s.socket.writableLength);
  }
  maybeDone();
}

function sampleStreams(): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (const s of streams.values()) {
    const c = counts(s);
    out.push([s.id, c.bytes, c.completions]);
  }
  return out;
}

/** One TCP_INFO read per live stream: [id, sample] for those that answered. */
function sampleTcp(index: number, t: number): [number, TcpSample][] {
  const out: [number, TcpSample][] = [];
  for (const s of streams.values()) {
    // A finished sender's socket stays open while the kernel drains it: its readings still count.
    s.tcp = (s.owned ? s.owned.sample(index, t) : sampleSocket(s.socket && !s.socket.destroyed ? s.socket : null, index, t)) ?? s.tcp;
    if (s.tcp) out.push([s.id, s.tcp]);
  }
  return out;
}

function scheduleTick(): void {
  const intervalNs = BigInt(Math.round(init!.intervalMs * 1e6));
  const due = startNs + BigInt(tickIndex + 1) * intervalNs;
  const waitMs = Math.max(0, Number(due - process.hrtime.bigint()) / 1e6);
  tickTimer = setTimeout(onTick, waitMs);
}

function onTick(): void {
  tickIndex++;
  const now = process.hrtime.bigint();
  const t = Number(now - startNs) / 1e9;
  send({ type: 'sample', index: tickIndex, t, final: false, streams: sampleStreams(), tcp: sampleTcp(tickIndex, t) });
  if (deadlineNs !== 0n && now >= deadlineNs && init!.role === 'send') {
    for (const s of streams.values()) if (!s.finished) endSender(s);
  }
  scheduleTick();
}

function maybeDone(): void {
  if (doneSent || !started) return;
  for (const s of streams.values()) if (!s.finished) return;
  doneSent = true;
  if (tickTimer) clearTimeout(tickTimer);
  const now = process.hrtime.bigint();
  const t = Number(now - startNs) / 1e9;
  send({ type: 'sample', index: tickIndex + 1, t, final: true, streams: sampleStreams(), tcp: sampleTcp(tickIndex + 1, t) });
  const ends: StreamEnd[] = [...streams.values()].map((s) => ({
    id: s.id,
    role: init!.role,
    ...counts(s),
    io: s.io,
    firstT: secondsSinceStart(s.firstNs),
    lastT: secondsSinceStart(s.lastNs),
    error: s.error as StreamEnd['error'],
    ...(s.report ? { socket: s.report } : {}),
  }));
  send({ type: 'done', streams: ends });
  closeOwned();
}

function onStart(ns: string): void {
  startNs = BigInt(ns);
  started = true;
  if (init!.seconds !== null) {
    deadlineNs = startNs + BigInt(Math.round(init!.seconds * 1e9));
  }
  scheduleTick();
  if (init!.role === 'send') {
    boundBacklogs();
    for (const s of streams.values()) s.pump();
  }
  maybeDone();
}

/** TCP_NOTSENT_LOWAT on every sending stream, so a timed run does not leave seconds of data queued behind its deadline. */
function boundBacklogs(): void {
  const api = nativeSockets().api;
  const set = api?.setNotSentLowat ?? null;
  if (!api || !set || process.env.LONGHAUL_SEND_BACKLOG === 'unbounded') return;
  const fds = new Map<number, number>();
  backlog = new SendBacklog(set, (id) => {
    const s = streams.get(id);
    const fd = fds.get(id);
    if (!s || fd === undefined || s.finished || (!s.owned && (!s.socket || s.socket.destroyed))) return null;
    try {
      return api.tcpInfo(fd).bytesAcked; // null where the OS does not say: the bound then stays as it is
    } catch {
      return null;
    }
  });
  for (const s of streams.values()) {
    const fd = s.finished ? null : s.owned ? s.owned.fd : s.socket ? socketFd(s.socket) : null;
    if (fd === null) continue;
    fds.set(s.id, fd);
    backlog.add(s.id, fd);
  }
}

/** How often a stopping worker checks its receivers against their byte targets, ms. */
const TARGET_CHECK_MS = 10;

function onStop(graceMs: number, receiveTargets: Map<number, number> | null): void {
  stopping = true;
  if (!started) {
    started = true;
    startNs = process.hrtime.bigint();
  }
  for (const s of streams.values()) {
    if (s.finished) continue;
    if (init!.role === 'send' && (s.socket || s.owned)) endSender(s);
  }
  // A stream that still moves bytes after the stop is draining what the kernels already
  // hold (seconds on a slow, long link): wait for it. Only a stream that stays idle for
  // `graceMs` is cut, and its loss is reported.
  const progress = new Map<number, { bytes: number; ns: bigint }>();
  const graceNs = BigInt(graceMs) * 1_000_000n;
  const watchdog = setInterval(() => {
    const now = process.hrtime.bigint();
    let open = 0;
    for (const s of streams.values()) {
      if (s.finished) continue;
      const bytes = countedBytes(s);
      const target = receiveTargets?.get(s.id);
      if (target !== undefined && bytes >= target) {
        // Everything the peer sent is here: the stream is complete, whenever its FIN comes.
        finishStream(s);
        continue;
      }
      const p = progress.get(s.id);
      if (!p || p.bytes !== bytes) {
        progress.set(s.id, { bytes, ns: now });
        open++;
        continue;
      }
      if (now - p.ns < graceNs) {
        open++;
        continue;
      }
      s.error ??= { code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: no progress for ${graceMs} ms after the stop, and no end from the peer` };
      s.native?.stop();
      s.socket?.destroy();
      finishStream(s);
    }
    if (open === 0) clearInterval(watchdog);
    maybeDone();
  }, receiveTargets ? TARGET_CHECK_MS : Math.min(250, graceMs));
  watchdog.unref();
  maybeDone();
}

/** How often a drain checks its senders' TCP_INFO, ms. */
const DRAIN_CHECK_MS = 5;

/**
 * Wait until the peer has acknowledged every byte this worker's senders wrote (nothing unsent,
 * nothing unacknowledged), at most `timeoutMs`. An iperf3 server stops counting at TEST_END,
 * so its client says TEST_END only once the bytes are there; without this wait a fast sender
 * ended with up to 9 % of its bytes still queued (measured: -n 300M -P 4 on loopback).
 */
function drain(timeoutMs: number): void {
  const api = nativeSockets().api;
  const until = process.hrtime.bigint() + BigInt(timeoutMs) * 1_000_000n;
  const pending = (): boolean | null => {
    if (init!.role !== 'send') return false;
    if (!api) return null;
    for (const s of streams.values()) {
      const fd = s.owned ? s.owned.fd : s.socket && !s.socket.destroyed ? socketFd(s.socket) : null;
      if (fd === null) continue;
      try {
        const info = api.tcpInfo(fd);
        if (info.unackedSegments === null || info.notSentBytes === null) return null;
        if (info.unackedSegments > 0 || info.notSentBytes > 0 || s.nativeRunning) return true;
      } catch {
        // the socket is gone: nothing of it is left to acknowledge
      }
    }
    return false;
  };
  const check = (): void => {
    const left = pending();
    if (left === true && process.hrtime.bigint() < until) {
      setTimeout(check, DRAIN_CHECK_MS).unref();
      return;
    }
    send({ type: 'drained', acked: left === false });
  };
  check();
}

function onMessage(msg: ToWorker, handle?: unknown): void {
  switch (msg.type) {
    case 'init':
      init = msg;
      ioChoice = chooseStreamIo();
      dataConn = chooseDataConn(nativeSockets().api);
      // The native receive loop is one thread per stream: never more of them than CPUs, or a
      // 128-stream run starves everything else on the machine, the UI included (measured: the
      // Chromium chart's redraw went from <100 ms to 8 s). Beyond that, Node's one-thread loop.
      // (Owned sockets have no Node loop to fall back on: they keep their threads.)
      if (ioChoice.io === 'native' && dataConn.mode === 'node' && msg.role === 'receive' && msg.streams > os.availableParallelism()) {
        ioChoice = { io: 'node', reason: `${msg.streams} receiving streams in one worker: more than the ${os.availableParallelism()} CPUs` };
      }
      payload = Buffer.alloc(msg.bufferBytes, 0x5a);
      // Node's loop reads into a buffer of at most RECEIVE_BUFFER_MAX_BYTES: copying into one larger
      // than the CPU's cache is slower there (loopback, 1 MiB writes: 23 Gbit/s with 1 MiB reads, 28 with 128 KiB).
      recvBuffer = msg.bufferBytes > RECEIVE_BUFFER_MAX_BYTES ? Buffer.alloc(RECEIVE_BUFFER_MAX_BYTES) : payload;
      return;
    case 'connect': {
      const s = newStream(msg.id, msg.bytes);
      if (dataConn.mode === 'owned') return connectOwned(s, msg.host, msg.port, Buffer.from(msg.headerB64, 'base64'));
      const onread = init!.role === 'receive' ? receiveOptions(s) : undefined;
      dialStream(msg.host, msg.port, tuning(), onread).then(({ socket, setup }) => {
        attach(s, socket);
        socket.once('connect', () => {
          s.report = reportSocket(socket, setup);
          socket.write(Buffer.from(msg.headerB64, 'base64'));
          if (s.io === 'native' && init!.role === 'receive') startNative(s);
          s.ready = true;
          send({ type: 'ready', id: msg.id });
        });
      }, (err: NodeJS.ErrnoException) => {
        send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: ${err.code ?? err.message}` });
      });
      return;
    }
    case 'adopt': {
      const s = newStream(msg.id, msg.bytes);
      // `handle` is accepted by net.Socket but missing from @types/node.
      const opts: net.SocketConstructorOpts & { handle: unknown; onread?: net.OnReadOpts } = {
        handle,
        readable: true,
        writable: true,
      };
      if (init!.role === 'receive') opts.onread = receiveOptions(s);
      const socket = new net.Socket(opts);
      attach(s, socket);
      s.report = reportSocket(socket, adoptedSetup(tuning(), { window: init!.listenerWindow, mss: init!.listenerMss }));
      if (s.io === 'native' && init!.role === 'receive') startNative(s);
      s.ready = true;
      send({ type: 'ready', id: msg.id });
      return;
    }
    case 'adopt-owned': {
      // A socket the engine accepted on its owned data listener, duplicated for this process (Windows).
      const s = newStream(msg.id, msg.bytes);
      let fd: number;
      try {
        fd = nativeSockets().api!.owned!.fromDuplicate(Buffer.from(msg.socketB64, 'base64'));
      } catch (err) {
        send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: cannot open the accepted socket here: ${(err as Error).message}` });
        return;
      }
      becomeOwned(s, fd, adoptedSetup(tuning(), { window: init!.listenerWindow, mss: init!.listenerMss }));
      return;
    }
    case 'start':
      onStart(msg.startNs);
      return;
    case 'stop':
      onStop(msg.graceMs, msg.receiveTargets ? new Map(msg.receiveTargets) : null);
      return;
    case 'drain':
      drain(msg.timeoutMs);
      return;
  }
}

/** What this run asks of every stream socket before its handshake. */
function tuning(): StreamTuning {
  return { windowBytes: init!.windowBytes, mssBytes: init!.mssBytes ?? null };
}

/** Controller side, owned connections: the addon connects with the window set and sends the header. */
function connectOwned(s: StreamState, host: string, port: number, header: Buffer): void {
  const api = nativeSockets().api!;
  dialOwned(api, host, port, init!.windowBytes, header, OWNED_CONNECT_TIMEOUT_MS, init!.mssBytes).then(({ fd, setup }) => {
    if (stopping) {
      api.closeFd(fd);
      send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: the run was stopped while it connected` });
      return;
    }
    becomeOwned(s, fd, setup);
  }, (err: NodeJS.ErrnoException) => {
    send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: ${ownedDialFailure(host, port, err)}` });
  });
}

/** A connected owned socket joins the run: described, its receiver loop started, announced. */
function becomeOwned(s: StreamState, fd: number, setup: Parameters<typeof ownedStream>[1]): void {
  s.owned = ownedStream(fd, setup);
  s.report = s.owned.report;
  s.io = 'native';
  if (init!.role === 'receive' && !startNative(s)) {
    send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message: s.error?.message ?? `stream ${s.id}: the native byte loop could not start` });
    return;
  }
  s.ready = true;
  send({ type: 'ready', id: s.id });
}

process.on('message', onMessage as (m: unknown, h: unknown) => void);
// The engine process is our only reason to exist: when it goes, we go.
process.on('disconnect', () => process.exit(0));
// A console's Ctrl-C / Ctrl-Break / close reaches every process attached to it, this one too.
// The engine stops the run (and keeps what was measured); a worker killed by the signal would
// lose its streams' last counters, so it leaves the stop to the engine and goes at 'disconnect'.
for (const signal of ['SIGINT', 'SIGBREAK', 'SIGHUP'] as const) process.on(signal, () => undefined);
