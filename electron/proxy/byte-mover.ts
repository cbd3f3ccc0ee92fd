/**
 * What holds and moves the bytes of one direction of a proxied connection,
 * while the pipe (pipe.ts) decides only how many may move and when. The pipe
 * works on byte counts; the bytes stay in order in the mover, from the source
 * socket to the sink socket. Two movers, one contract:
 *
 * - `NodeMover` (here): Node's sockets and Buffers, on the JS thread. Every OS.
 * - `NativeMover` (native-mover.ts): the addon's relay thread on dup()s of the
 *   same sockets (POSIX), so the JS thread only does the model's arithmetic.
 *
 * Which one a connection gets: relay-mode.ts, one rule.
 */
import type net from 'node:net';

export type MoverKind = 'native' | 'js';

/** What a mover tells its pipe; every call comes on the JS thread. */
export interface MoverHooks {
  /** `bytes` more were read from the source (in order, after the ones before). */
  onRead(bytes: number): void;
  /** The source sent its FIN; every byte before it was reported. */
  onEnd(): void;
  /** write() returned false earlier; the sink takes bytes again. */
  onDrain(): void;
}

export interface ByteMover {
  readonly kind: MoverKind;
  /** Milliseconds the reader spent behind the source (it had more than a full read waiting while the model had room). */
  readonly behindMs: number;
  start(hooks: MoverHooks): void;
  /** Read until `offset` bytes in all came from the source (the model's inbox credit); may be called with the same offset again. */
  setReadLimit(offset: number): void;
  /** Send the next `bytes` read to the sink. False: the sink is full, wait for onDrain before the next write. */
  write(bytes: number): boolean;
  /** Send the FIN after the last byte written. */
  end(): void;
  /** Stop moving now (teardown); bytes held are dropped. */
  destroy(): void;
}

/** Node's default read size: a read this large took all it could, so the kernel likely held more. */
const NODE_READ_BYTES = 64 * 1024;

export class NodeMover implements ByteMover {
  readonly kind = 'js';
  behindMs = 0;
  private readonly held: Buffer[] = [];
  private readBytes = 0;
  private readLimit = 0;
  private paused = true;
  /** When the reader last read (or last got credit back after the model held it). */
  private lastReadMs: number;
  private hooks: MoverHooks | null = null;

  /** `resumeBytes`: read credit that must be free again before a paused source resumes (hysteresis). */
  constructor(
    private readonly source: net.Socket,
    private readonly sink: net.Socket,
    private readonly resumeBytes: number,
    private readonly now: () => number,
  ) {
    this.onData = this.onData.bind(this);
    this.lastReadMs = now();
  }

  start(hooks: MoverHooks): void {
    this.hooks = hooks;
    this.source.on('data', this.onData);
    this.source.on('end', () => hooks.onEnd());
  }

  setReadLimit(offset: number): void {
    this.readLimit = offset;
    if (!this.paused && this.readBytes >= offset) {
      this.paused = true;
      this.source.pause();
    } else if (this.paused && offset - this.readBytes >= this.resumeBytes) {
      this.paused = false;
      this.lastReadMs = this.now();
      this.source.resume();
    }
  }

  write(bytes: number): boolean {
    let ok = true;
    let left = bytes;
    const many = this.held.length > 1 && (this.held[0]?.length ?? 0) < bytes;
    if (many) this.sink.cork();
    while (left > 0) {
      const head = this.held[0];
      if (!head) throw new Error(`relay invariant: asked to write ${bytes} bytes, only ${bytes - left} were held`);
      const piece = head.length <= left ? head : head.subarray(0, left);
      if (piece === head) this.held.shift();
      else this.held[0] = head.subarray(left);
      left -= piece.length;
      if (!this.sink.destroyed) ok = this.sink.write(piece);
    }
    if (many) this.sink.uncork();
    if (!ok) this.sink.once('drain', () => this.hooks?.onDrain());
    return ok;
  }

  end(): void {
    if (!this.sink.destroyed) this.sink.end();
  }

  destroy(): void {
    this.source.off('data', this.onData);
    this.held.length = 0;
  }

  private onData(buf: Buffer): void {
    this.held.push(buf);
    this.readBytes += buf.length;
    // A full read: more was waiting; the time since the last read is the relay's delay (native-mover: the same rule).
    const t = this.now();
    if (buf.length >= NODE_READ_BYTES) this.behindMs += t - this.lastReadMs;
    this.lastReadMs = t;
    if (this.readBytes >= this.readLimit && !this.paused) {
      this.paused = true;
      this.source.pause();
    }
    this.hooks?.onRead(buf.length);
  }
}
