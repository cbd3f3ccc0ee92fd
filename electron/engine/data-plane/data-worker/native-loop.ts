/**
 * The addon's byte loop on a Node socket (POSIX): the thread works on a dup of
 * the socket's descriptor, Node keeps the socket itself (its events, our FIN,
 * its close). Senders start at the run's start, receivers as soon as they are
 * connected. Where the loop cannot start, Node's loop takes the stream over.
 */
import type net from 'node:net';
import type { PumpEndReason } from '../../../native/native-api.js';
import { socketFd } from '../../../native/node-handle.js';
import { NodeLoop } from './node-loop.js';
import { PumpRun } from './native-pump.js';
import { connectionFailure, type Counts, type LoopHost, type Stream } from './stream.js';
import type { StreamSendPath } from '../../../contract/send-path.js';

export class NativeSocketLoop extends NodeLoop {
  private readonly run: PumpRun;

  constructor(host: LoopHost, s: Stream, socket: net.Socket) {
    super(host, s, socket);
    this.run = new PumpRun(host, s);
  }

  override get io(): 'native' | 'node' {
    return 'native';
  }

  override get running(): boolean {
    return this.run.running;
  }

  override counts(): Counts {
    return this.run.pump ? this.run.counts() : super.counts();
  }

  override sendPath(): StreamSendPath {
    // No loop yet (stopped before its start): nothing was sent, by either call.
    return this.run.sendPath() ?? { path: 'copy', reason: 'the byte loop never started' };
  }

  override startReceiving(): boolean {
    this.start();
    return true; // on one loop or the other
  }

  override pump(): void {
    const { s, socket } = this;
    if (this.run.pump || s.finished) return;
    // The data header must be on the wire before the first payload byte.
    if (socket.writableLength > 0) socket.once('drain', s.pump);
    else if (!this.start()) s.loop.pump();
  }

  override endSending(): void {
    // The loop ends within 50 ms and comes back here through onDone.
    if (this.run.running) this.run.stop();
    else super.endSending();
  }

  override stop(): void {
    this.run.stop();
  }

  override cut(): void {
    this.run.stop();
    super.cut();
  }

  /** Hand the bytes to the native loop. False (and Node's loop has the stream) when it cannot start. */
  private start(): boolean {
    const why = this.run.start(socketFd(this.socket), (err, reason) => this.onDone(err, reason));
    if (why !== null) return this.fallBackToNode(why);
    // Node must not read this socket any more: the native loop is its only reader (receive) and
    // Node only watches for the peer's FIN (send).
    if (this.host.role === 'receive') this.socket.pause();
    return true;
  }

  private fallBackToNode(why: string): false {
    this.s.loop = new NodeLoop(this.host, this.s, this.socket, why);
    this.host.warn(`longhaul: stream ${this.s.id} moves its bytes through Node: ${why}`);
    return false;
  }

  private onDone(err: NodeJS.ErrnoException | null, reason: PumpEndReason): void {
    const { s, socket, host } = this;
    if (err) {
      s.fail(connectionFailure(host, err));
      socket.destroy();
      host.finish(s);
      return;
    }
    if (host.role === 'send') {
      // Budget, deadline or stop: the kernel has every byte counted; send our FIN.
      if (!s.finished) this.endSending();
      else host.maybeDone();
      return;
    }
    if (reason === 'eof') {
      host.finish(s);
      // Node never saw the FIN (it was not reading): answer it and let go of the socket.
      if (!socket.destroyed) socket.end(() => socket.destroy());
      return;
    }
    // Stopped: the stream was cut (watchdog) or failed; finish is waiting for us.
    host.finish(s);
  }
}
