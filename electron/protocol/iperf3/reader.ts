/**
 * Bytes in, iperf3 control items out. iperf3's control stream is not self-describing
 * (a state byte, a length, a cookie look alike), so the caller says what it expects
 * next and the reader answers with that item once its bytes are all there. It never
 * touches a socket: tests feed it buffers split at every offset.
 *
 * What iperf3's own server got wrong here (CVE-2016-4303: a length trusted for an
 * allocation; CVE-2023-38403: a 0xFFFFFFFF length wrapping to a 0-byte buffer;
 * esnet/iperf#1986 and friends: a read without an end), this reader refuses:
 * - a JSON length is checked against the caller's cap before anything is buffered for it;
 *   0 and anything over the cap are a `ProtocolError`, nothing is allocated from it;
 * - the bytes a peer may send ahead of what is expected are capped too;
 * - a state byte iperf3 never sends, invalid UTF-8, invalid JSON or a non-object is an error,
 *   and the reader refuses everything after its first error.
 * Timeouts belong to the caller (engine/iperf3/iperf3-control.ts): every read there has one.
 */
import { ProtocolError } from '../../util/errors.js';
import { COOKIE_BYTES, stateName } from './states.js';

export type Expect =
  | { kind: 'cookie' }
  | { kind: 'state' }
  | { kind: 'json'; maxBytes: number }
  /** The two 4-byte numbers after SERVER_ERROR: iperf3's i_errno and the OS errno. */
  | { kind: 'error-codes' };

export type Item =
  | { kind: 'cookie'; cookie: Buffer }
  | { kind: 'state'; state: number }
  | { kind: 'json'; value: Record<string, unknown> }
  | { kind: 'error-codes'; iperfErrno: number; osErrno: number };

const LENGTH_BYTES = 4;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export class Iperf3Reader {
  private buffer: Buffer = Buffer.alloc(0);
  private failed: ProtocolError | null = null;

  /** @param maxAheadBytes the most bytes held unread (a peer that sends more is broken or hostile). */
  constructor(private readonly maxAheadBytes: number) {}

  get pendingBytes(): number {
    return this.buffer.length;
  }

  /** Append bytes from the peer. Throws once more than `maxAheadBytes` wait unread. */
  push(chunk: Uint8Array): void {
    if (this.failed) throw this.failed;
    if (chunk.length === 0) return;
    if (this.buffer.length + chunk.length > this.maxAheadBytes) {
      this.fail(`the peer sent ${this.buffer.length + chunk.length} bytes nobody asked for yet (at most ${this.maxAheadBytes} are kept)`);
    }
    this.buffer = this.buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.buffer, chunk]);
  }

  /** The expected item if its bytes are all there, else undefined. Throws `ProtocolError` on a malformed one. */
  take(expect: Expect): Item | undefined {
    if (this.failed) throw this.failed;
    switch (expect.kind) {
      case 'cookie': {
        const bytes = this.consume(COOKIE_BYTES);
        return bytes && { kind: 'cookie', cookie: Buffer.from(bytes) };
      }
      case 'state': {
        const bytes = this.consume(1);
        if (!bytes) return undefined;
        const state = bytes.readInt8(0);
        if (stateName(state) === null) this.fail(`unknown iperf3 state byte ${state}`);
        return { kind: 'state', state };
      }
      case 'error-codes': {
        const bytes = this.consume(8);
        return bytes && { kind: 'error-codes', iperfErrno: bytes.readInt32BE(0), osErrno: bytes.readInt32BE(4) };
      }
      case 'json':
        return this.takeJson(expect.maxBytes);
    }
  }

  private takeJson(maxBytes: number): Item | undefined {
    if (this.buffer.length < LENGTH_BYTES) return undefined;
    const length = this.buffer.readUInt32BE(0);
    if (length === 0) this.fail('an iperf3 JSON document of length 0');
    if (length > maxBytes) this.fail(`an iperf3 JSON document announces ${length} bytes; the cap here is ${maxBytes}`, 'LH_ERR_FRAME_TOO_LARGE');
    const frame = this.consume(LENGTH_BYTES + length);
    if (!frame) return undefined;
    const body = frame.subarray(LENGTH_BYTES);
    let value: unknown;
    try {
      value = JSON.parse(utf8.decode(body));
    } catch {
      this.fail('an iperf3 JSON document that is not valid UTF-8 JSON');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) this.fail('an iperf3 JSON document that is not an object');
    return { kind: 'json', value: value as Record<string, unknown> };
  }

  private consume(n: number): Buffer | undefined {
    if (this.buffer.length < n) return undefined;
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  private fail(message: string, code: 'LH_ERR_IPERF3_PROTOCOL' | 'LH_ERR_FRAME_TOO_LARGE' = 'LH_ERR_IPERF3_PROTOCOL'): never {
    this.failed = new ProtocolError(code, message);
    this.buffer = Buffer.alloc(0);
    throw this.failed;
  }
}

/** One state byte on the wire. */
export function encodeState(state: number): Buffer {
  const b = Buffer.alloc(1);
  b.writeInt8(state, 0);
  return b;
}

/** SERVER_ERROR's two numbers. */
export function encodeErrorCodes(iperfErrno: number, osErrno: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeInt32BE(iperfErrno, 0);
  b.writeInt32BE(osErrno, 4);
  return b;
}

/** A JSON document behind its 4-byte length. Throws when it exceeds `maxBytes` (a bug on our side). */
export function encodeJson(value: object, maxBytes: number): Buffer {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  if (body.length === 0 || body.length > maxBytes) {
    throw new ProtocolError('LH_ERR_FRAME_TOO_LARGE', `outgoing iperf3 JSON of ${body.length} bytes exceeds the ${maxBytes}-byte cap`);
  }
  const out = Buffer.alloc(LENGTH_BYTES + body.length);
  out.writeUInt32BE(body.length, 0);
  body.copy(out, LENGTH_BYTES);
  return out;
}
