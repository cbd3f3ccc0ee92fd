/**
 * Windows' byte loop: the addon's loop on a socket the addon owns from the SYN
 * to the close (native/data-path.ts; Windows by default, where Node cannot
 * expose one; any OS whose data path is switched to owned: native/switches.ts). The loop is
 * the socket's only reader and writer; this worker sends its FIN and closes
 * it. Node has no handle on it, so there is no Node loop to fall back on.
 */
import type { TcpSample } from '../../../contract/result.js';
import type { PumpEndReason } from '../../../native/native-api.js';
import type { OwnedStream } from '../stream-socket.js';
import type { StreamSendPath } from '../../../contract/send-path.js';
import { PumpRun } from './native-pump.js';
import { connectionFailure, type Counts, type LoopHost, type Stream, type StreamLoop } from './stream.js';

export class WindowsOwnedLoop implements StreamLoop {
  readonly io = 'native' as const;
  readonly connected = true;
  private readonly run: PumpRun;

  constructor(
    private readonly host: LoopHost,
    private readonly s: Stream,
    readonly owned: OwnedStream,
  ) {
    this.run = new PumpRun(host, s);
  }

  get running(): boolean {
    return this.run.running;
  }

  counts(): Counts {
    return this.run.counts();
  }

  startReceiving(): boolean {
    return this.start();
  }

  pump(): void {
    // The header went out with the connect; only the native loop can move the bytes.
    if (!this.run.pump && !this.s.finished) this.start();
  }

  endSending(): void {
    if (this.run.running) this.run.stop();
    // Stopped before its loop ever ran.
    else if (!this.s.finished) this.onDone(null, 'stopped');
  }

  stop(): void {
    this.run.stop();
  }

  cut(): void {
    this.run.stop();
  }

  tcpFd(): number {
    return this.owned.fd;
  }

  sample(index: number, t: number): TcpSample | null {
    return this.owned.sample(index, t);
  }

  settle(): void {}

  sendPath(): StreamSendPath {
    return this.run.sendPath() ?? { path: 'copy', reason: 'the byte loop never started' };
  }

  /** After the results: close the socket once its loop has ended. */
  close(): void {
    if (!this.run.running) this.owned.close();
  }

  private start(): boolean {
    const why = this.run.start(this.owned.fd, (err, reason) => this.onDone(err, reason));
    return why === null || this.fallBackToNode(why);
  }

  private fallBackToNode(why: string): false {
    // Node has no handle on an owned socket: without the native loop the stream cannot run.
    this.s.fail(`the native byte loop could not start: ${why}`);
    this.host.finish(this.s);
    return false;
  }

  /**
   * The loop ended: a sender (budget, deadline, stop) sends its FIN; a receiver answers the
   * peer's FIN with its own. The socket stays open, so the final TCP_INFO can still be read,
   * until the worker's results are out (close).
   */
  private onDone(err: NodeJS.ErrnoException | null, reason: PumpEndReason): void {
    const { s, host } = this;
    if (err) {
      s.fail(connectionFailure(host, err));
    } else if (host.role === 'send' || reason === 'eof') {
      if (host.role === 'send') s.lastNs = host.clock.nowNs();
      try {
        host.native?.owned?.shutdownSend(this.owned.fd);
      } catch (e) {
        // The peer reset the connection after our last byte: the bytes counted are in its kernel or lost with it.
        if (host.role === 'send') s.fail(connectionFailure(host, e as Error));
      }
    }
    host.finish(s);
  }
}
