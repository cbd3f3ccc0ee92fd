/** An in-memory stand-in for a control connection's socket (protocol tests). */
import { Duplex } from 'node:stream';

/** One end of an in-memory connection, with the few socket properties the channel reads. */
export class MemorySocket extends Duplex {
  written: Buffer[] = [];
  remoteAddress = '192.0.2.1';
  localAddress = '192.0.2.2';
  setNoDelay(): this {
    return this;
  }
  override _read(): void {}
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    this.written.push(chunk);
    cb();
  }
}
