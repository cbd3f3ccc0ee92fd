/**
 * The link emulator's byte mover on the addon's relay thread
 * (native/src/relay_pump.cc): the thread reads the source and writes the sink
 * on dup()s of the two Node sockets, which stay paused (Node does not touch
 * them); this side turns the thread's coalesced notifications into the pipe's
 * hooks and the pipe's decisions into two offsets. Teardown: `onClosed` once
 * the thread let go of both descriptors, with the OS error if one ended it.
 */
import type { NativeApi, NativeRelay } from '../native/native-api.js';
import type { ByteMover, MoverHooks } from './byte-mover.js';

const EOF_BIT = 1;
const ENDED_BIT = 4;

/**
 * Bytes released to the thread and not yet in the sink's socket before the pipe waits for a
 * drain: a millisecond of 10 Gbit/s (one timer tick's burst) and then some. A receiver that
 * stops reading stops the flow after this much, as Node's write buffer does on the JS path.
 */
const HIGH_WATER_BYTES = 2 * 1024 * 1024;

export interface NativeMoverEnd {
  /** The OS error that ended the thread (`syscall` recv: the source's side, send/shutdown: the sink's), or null. */
  err: NodeJS.ErrnoException | null;
}

export class NativeMover implements ByteMover {
  readonly kind = 'native';
  behindMs = 0;
  /** The thread has let go of both descriptors. */
  ended = false;
  private readonly relay: NativeRelay;
  private hooks: MoverHooks | null = null;
  private read = 0;
  private written = 0;
  private released = 0;
  private waitingDrain = false;
  private eofSeen = false;

  constructor(
    startRelay: NonNullable<NativeApi['startRelay']>,
    srcFd: number,
    dstFd: number,
    private readonly onClosed: (end: NativeMoverEnd) => void,
  ) {
    this.relay = startRelay(srcFd, dstFd, (err, read, written, state, behindMs) => this.onNotify(err, read, written, state, behindMs));
  }

  start(hooks: MoverHooks): void {
    this.hooks = hooks;
  }

  setReadLimit(offset: number): void {
    this.relay.setReadLimit(offset);
  }

  write(bytes: number): boolean {
    this.released += bytes;
    this.relay.release(this.released);
    if (this.released - this.written < HIGH_WATER_BYTES) return true;
    this.waitingDrain = true;
    return false;
  }

  end(): void {
    this.relay.finish();
  }

  destroy(): void {
    this.relay.stop();
  }

  private onNotify(err: NodeJS.ErrnoException | null, read: number, written: number, state: number, behindMs: number): void {
    this.behindMs = behindMs;
    this.written = written;
    const hooks = this.hooks;
    if (read > this.read) {
      const more = read - this.read;
      this.read = read;
      hooks?.onRead(more);
    }
    if (state & EOF_BIT && !this.eofSeen) {
      this.eofSeen = true;
      hooks?.onEnd();
    }
    if (this.waitingDrain && this.released - written < HIGH_WATER_BYTES / 2) {
      this.waitingDrain = false;
      hooks?.onDrain();
    }
    if (state & ENDED_BIT && !this.ended) {
      this.ended = true;
      this.onClosed({ err });
    }
  }
}
