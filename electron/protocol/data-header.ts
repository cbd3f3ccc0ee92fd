/**
 * The first 24 bytes of every data connection (controller → responder):
 *
 *   0      4                          20       22      24
 *   | LHD1 | run cookie (16 bytes)    | id u16 | 0 0   |
 *
 * "LHD1" read as a big-endian length is 1.28 GB, far over the control-frame
 * cap, so one 4-byte peek tells a data connection from a control connection on
 * the same port. A wrong or missing cookie closes the connection at once.
 */
import { timingSafeEqual } from 'node:crypto';

const DATA_MAGIC = Buffer.from('LHD1', 'ascii');
export const DATA_HEADER_BYTES = 24;
const COOKIE_BYTES = 16;

export function encodeDataHeader(cookieHex: string, streamId: number): Buffer {
  const header = Buffer.alloc(DATA_HEADER_BYTES);
  DATA_MAGIC.copy(header, 0);
  Buffer.from(cookieHex, 'hex').copy(header, 4);
  header.writeUInt16BE(streamId, 20);
  return header;
}

export function isDataMagic(first4: Buffer): boolean {
  return first4.length >= 4 && first4.subarray(0, 4).equals(DATA_MAGIC);
}

/** Returns the stream id if the header carries `cookieHex`, else null. Constant-time cookie compare. */
export function checkDataHeader(header: Buffer, cookieHex: string): number | null {
  if (header.length !== DATA_HEADER_BYTES || !isDataMagic(header)) return null;
  const expected = Buffer.from(cookieHex, 'hex');
  if (expected.length !== COOKIE_BYTES) return null;
  if (!timingSafeEqual(header.subarray(4, 20), expected)) return null;
  if (header[22] !== 0 || header[23] !== 0) return null;
  return header.readUInt16BE(20);
}
