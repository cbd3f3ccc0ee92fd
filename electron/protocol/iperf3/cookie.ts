/**
 * iperf3's session cookie: 36 characters of a 32-letter alphabet and a NUL, 37 bytes
 * on the wire. The client sends it first on the control connection and again first on
 * every data connection; a server tells a run's data connections from strangers by it.
 */
import { randomBytes } from 'node:crypto';
import { COOKIE_BYTES } from './states.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** A fresh random cookie (180 bits: 36 characters of 5 bits each). */
export function makeCookie(): Buffer {
  const random = randomBytes(COOKIE_BYTES - 1);
  const out = Buffer.alloc(COOKIE_BYTES);
  for (const [i, r] of random.entries()) out[i] = ALPHABET.charCodeAt(r % ALPHABET.length);
  return out;
}

/**
 * Whether 37 bytes are a cookie as iperf3 makes them. A server only compares the bytes
 * (iperf_tcp_accept), but checking the shape costs nothing and keeps binary junk out of logs.
 */
export function isWellFormedCookie(bytes: Buffer): boolean {
  if (bytes.length !== COOKIE_BYTES || bytes[COOKIE_BYTES - 1] !== 0) return false;
  for (const b of bytes.subarray(0, COOKIE_BYTES - 1)) if (!ALPHABET.includes(String.fromCharCode(b))) return false;
  return true;
}

/**
 * The result id of a test with this cookie: 16 hex digits, as every Longhaul run's id (History
 * and the app take hex ids only, so an id can never walk out of the results folder). They are
 * the first 8 cookie characters' bytes, so the id reads back to the start of the cookie
 * iperf3 -J prints (`start.cookie`). Only ever called on a well-formed cookie.
 */
export function resultIdOf(cookie: Buffer): string {
  return cookie.subarray(0, 8).toString('hex');
}
