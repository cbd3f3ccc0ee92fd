/**
 * Control-channel framing: a 4-byte big-endian length, then that many bytes of
 * UTF-8 JSON. The parser is bytes in, messages out; it never touches a socket
 * (the ws library's rule: docs/contributing.md, "Style"), so tests feed it buffers split at every offset.
 *
 * Safety properties (iperf3's control parser had heap overflows and hangs on
 * exactly these inputs: CVE-2016-4303, CVE-2023-38403):
 * - the announced length is checked against `maxFrameBytes` before anything is
 *   buffered for it, and nothing is ever allocated from the announced size;
 * - a zero-length frame, a length over the cap, invalid UTF-8/JSON or a
 *   non-object payload is a `ProtocolError`, and the parser refuses further input.
 */
import { ProtocolError } from '../util/errors.js';

/** Default cap on one control frame. Results are sent as per-stream totals, so this is generous. */
export const DEFAULT_MAX_FRAME_BYTES = 256 * 1024;
const FRAME_HEADER_BYTES = 4;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Encode one message as a frame. Throws if it would exceed the cap (a bug on our side). */
export function encodeFrame(message: object, maxFrameBytes = DEFAULT_MAX_FRAME_BYTES): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  if (body.length === 0 || body.length > maxFrameBytes) {
    throw new ProtocolError('LH_ERR_FRAME_TOO_LARGE', `outgoing frame of ${body.length} bytes exceeds the ${maxFrameBytes}-byte cap`);
  }
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, FRAME_HEADER_BYTES);
  return frame;
}

/** Incremental frame decoder. Feed it bytes with `push`; it returns the complete messages. */
export class FrameParser {
  readonly maxFrameBytes: number;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private failed: ProtocolError | null = null;

  constructor(maxFrameBytes = DEFAULT_MAX_FRAME_BYTES) {
    this.maxFrameBytes = maxFrameBytes;
  }

  /** Bytes received but not yet part of a complete frame. */
  get pendingBytes(): number {
    return this.buffered;
  }

  /**
   * Append bytes and return every message they complete, in order.
   * Throws `ProtocolError` on the first malformed frame; the parser then stays failed.
   */
  push(chunk: Uint8Array): unknown[] {
    if (this.failed) throw this.failed;
    if (chunk.length > 0) {
      this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
      this.buffered += chunk.length;
    }
    const out: unknown[] = [];
    try {
      for (;;) {
        const message = this.next();
        if (message === undefined) break;
        out.push(message);
      }
    } catch (err) {
      this.failed = err as ProtocolError;
      this.chunks = [];
      this.buffered = 0;
      throw err;
    }
    return out;
  }

  private next(): unknown {
    if (this.buffered < FRAME_HEADER_BYTES) return undefined;
    const length = this.peekLength();
    if (length === 0) throw new ProtocolError('LH_ERR_BAD_FRAME', 'empty control frame (length 0)');
    if (length > this.maxFrameBytes) {
      throw new ProtocolError('LH_ERR_FRAME_TOO_LARGE', `control frame announces ${length} bytes; the cap is ${this.maxFrameBytes}`);
    }
    if (this.buffered < FRAME_HEADER_BYTES + length) return undefined;
    const frame = this.take(FRAME_HEADER_BYTES + length);
    let text: string;
    try {
      text = utf8.decode(frame.subarray(FRAME_HEADER_BYTES));
    } catch {
      throw new ProtocolError('LH_ERR_BAD_FRAME', 'control frame is not valid UTF-8');
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ProtocolError('LH_ERR_BAD_FRAME', 'control frame is not valid JSON');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ProtocolError('LH_ERR_BAD_FRAME', 'control frame must hold a JSON object');
    }
    return value;
  }

  private peekLength(): number {
    const first = this.chunks[0];
    if (first && first.length >= FRAME_HEADER_BYTES) return first.readUInt32BE(0);
    const head = Buffer.concat(this.chunks, Math.min(this.buffered, 16)).subarray(0, FRAME_HEADER_BYTES);
    return head.readUInt32BE(0);
  }

  /** Remove exactly `n` bytes from the front of the queue (n <= buffered). */
  private take(n: number): Buffer {
    const first = this.chunks[0];
    let result: Buffer;
    if (first && first.length >= n) {
      result = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      result = Buffer.allocUnsafe(n);
      let filled = 0;
      while (filled < n) {
        const c = this.chunks[0];
        if (c === undefined) throw new RangeError(`take(${n}) with only ${filled} bytes buffered`);
        const need = n - filled;
        if (c.length <= need) {
          c.copy(result, filled);
          filled += c.length;
          this.chunks.shift();
        } else {
          c.copy(result, filled, 0, need);
          this.chunks[0] = c.subarray(need);
          filled += need;
        }
      }
    }
    this.buffered -= n;
    return result;
  }
}
