/**
 * Node's byte loop on a Node socket: senders `socket.write` one fixed buffer
 * honouring backpressure; receivers count what `onread` reads into one fixed
 * buffer (set when the socket is made: receiveOptions). Also the socket's
 * events, which are the same whichever loop moves its bytes.
 */
import type net from 'node:net';
import type { TcpSample } from '../../../contract/result.js';
import type { StreamSendPath } from '../../../contract/send-path.js';
import { socketFd } from '../../../native/node-handle.js';
import { connectionFailure, type Counts, type LoopHost, type Stream, type StreamLoop } from './stream.js';

/** Writes per event-loop turn before yielding, so timers (samples, deadline) still run. */
const WRITES_PER_TURN = 16;

/**
 * A receiver's `onread`: count each read into the shared buffer. At its cap the stream stops
 * reading (false pauses the socket) and ends: past the cap by at most one read (`buffer`'s length).
 */
export function receiveOptions(host: LoopHost, s: Stream, buffer: Buffer): net.OnReadOpts {
  return {
    buffer,
    callback(n: number): boolean {
      if (s.finished) return false;
      const now = host.clock.nowNs();
      if (s.firstNs === 0n) s.firstNs = now;
      s.lastNs = now;
      s.bytes += n;
      s.completions++;
      if (s.cap === null || s.bytes < s.cap) return true;
      host.finish(s);
      return false;
    },
  };
}

/** A stream's Node socket: its failures, its close and the peer's FIN end the stream. */
export function watchSocket(host: LoopHost, s: Stream, socket: net.Socket): void {
  socket.on('error', (err: NodeJS.ErrnoException) => {
    const message = `stream ${s.id}: ${connectionFailure(host, err)}`;
    if (!s.ready) host.send({ type: 'stream-error', id: s.id, code: 'LH_ERR_DATA_STREAM', message });
    if (!s.finished) {
      s.error = { code: 'LH_ERR_DATA_STREAM', message };
      host.finish(s);
    }
  });
  socket.on('close', () => {
    if (s.ready && !host.started) {
      // The peer turned this connection away (or died) before the start: say so now, not after a timeout.
      host.send({
        type: 'stream-error',
        id: s.id,
        code: 'LH_ERR_DATA_STREAM',
        message: `stream ${s.id}: ${host.init.partner} closed the data connection before the run started`,
      });
    }
    if (!s.finished) {
      s.peerClosed = true;
      host.finish(s);
    }
  });
  if (host.role === 'receive') {
    socket.on('end', () => {
      host.finish(s);
      socket.end();
    });
  } else {
    // A sender expects nothing from the peer but its FIN; drain anything else.
    socket.on('end', () => socket.end());
  }
}

export class NodeLoop implements StreamLoop {
  readonly connected = true;

  constructor(
    protected readonly host: LoopHost,
    protected readonly s: Stream,
    readonly socket: net.Socket,
    /** Why Node's loop moves this stream and not the addon's (null: not said). */
    private readonly nodeWhy: string | null = null,
  ) {}

  /** Node's writes copy every buffer into the kernel: no zero-copy call is open to them. */
  sendPath(): StreamSendPath {
    return { path: 'copy', reason: `Node's socket loop copies each write${this.nodeWhy ? ` (it moves this stream: ${this.nodeWhy})` : ''}` };
  }

  get io(): 'native' | 'node' {
    return 'node';
  }

  get running(): boolean {
    return false;
  }

  counts(): Counts {
    const { s, socket } = this;
    if (this.host.role === 'receive') return { bytes: s.bytes, completions: s.completions, firstNs: s.firstNs };
    return { bytes: s.bytes - (socket.destroyed ? 0 : socket.writableLength), completions: s.completions, firstNs: s.firstNs };
  }

  startReceiving(): boolean {
    return true; // `onread` has been reading since the socket was made
  }

  pump(): void {
    const { s, socket, host } = this;
    if (s.finished || socket.writableEnded) return;
    // Also checked on resume after 'drain': a window-limited sender is always back-pressured and would overrun the deadline.
    if (host.deadlineNs !== 0n && host.clock.nowNs() >= host.deadlineNs) return this.endSending();
    for (let n = 0; ; n++) {
      if (host.stopping) return this.endSending();
      let chunk = host.payload;
      const limit = s.byteLimit;
      if (limit !== null) {
        const left = limit - s.bytes;
        if (left <= 0) return this.endSending();
        if (left < chunk.length) chunk = chunk.subarray(0, left);
      }
      if (s.bucket) {
        // --bitrate, paced here: write what the bucket allows, or come back when it has a burst.
        const now = host.clock.nowNs();
        const allowed = s.bucket.allow(now, chunk.length);
        if (allowed === 0) {
          host.clock.setTimeout(s.pump, s.bucket.waitMs(now, chunk.length));
          return;
        }
        chunk = chunk.subarray(0, allowed);
        s.bucket.spent(allowed);
      }
      if (s.firstNs === 0n) s.firstNs = host.clock.nowNs();
      const ok = socket.write(chunk);
      s.bytes += chunk.length;
      s.completions++;
      if (!ok) {
        socket.once('drain', s.pump);
        return;
      }
      if (n >= WRITES_PER_TURN) {
        if (host.deadlineNs !== 0n && host.clock.nowNs() >= host.deadlineNs) return this.endSending();
        setImmediate(s.pump);
        return;
      }
    }
  }

  /** Our FIN after the last byte; the stream finishes once the kernel has it, whoever ended our side. */
  endSending(): void {
    const { s, socket, host } = this;
    const over = (): void => {
      if (s.finished) return;
      s.lastNs = host.clock.nowNs();
      host.finish(s);
    };
    if (!socket.writableEnded) return void socket.end(over);
    // Ended already: the peer's FIN made Node end our side ('end' above), possibly while a native
    // loop still held the stream. Nothing more will call back unless we wait here.
    if (socket.writableFinished || socket.destroyed) return over();
    socket.once('finish', over);
    socket.once('close', over);
  }

  stop(): void {}

  cut(): void {
    this.socket.destroy();
  }

  tcpFd(): number | null {
    return this.socket.destroyed ? null : socketFd(this.socket);
  }

  sample(index: number, t: number): TcpSample | null {
    // A finished sender's socket stays open while the kernel drains it: its readings still count.
    return this.host.sockets.sample(this.socket.destroyed ? null : this.socket, index, t);
  }

  settle(): void {
    // Only what reached the kernel counts.
    if (this.s.error && this.host.role === 'send') this.s.bytes = Math.max(0, this.s.bytes - this.socket.writableLength);
  }

  close(): void {}
}
