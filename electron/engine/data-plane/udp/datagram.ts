/**
 * The headers a UDP test's datagrams carry, at the start of each payload.
 *
 * Longhaul's own (32 bytes, big-endian):
 *   0  'LHU1'                 magic
 *   4  u32 stream id
 *   8  u64 sequence number     from 1, as iperf3's
 *  16  u64 send time, ns       the sender's monotonic clock (only differences are used: jitter)
 *  24  8 bytes of the run's cookie: a stranger's datagram on the port is dropped, not counted
 *
 * iperf3's (src/iperf_udp.c), so Longhaul speaks to a real iperf3 both ways:
 *   0  u32 seconds, 4 u32 microseconds (the sender's wall clock), 8 u32 packet count (12 bytes),
 *   or u64 with --udp-counters-64bit (16 bytes).
 */

import { UDP_MIN_DATAGRAM_BYTES } from '../../../contract/udp.js';

export const LONGHAUL_HEADER_BYTES = UDP_MIN_DATAGRAM_BYTES;
const MAGIC = 0x4c485531; // 'LHU1'
const COOKIE_TAG_BYTES = 8;

interface LonghaulDatagram {
  streamId: number;
  seq: number;
  sentNs: bigint;
}

/** Write the header into `buf` (at least LONGHAUL_HEADER_BYTES long); `tag` is the cookie's first 8 bytes. */
export function writeLonghaulHeader(buf: Buffer, d: LonghaulDatagram, tag: Buffer): void {
  buf.writeUInt32BE(MAGIC, 0);
  buf.writeUInt32BE(d.streamId, 4);
  buf.writeBigUInt64BE(BigInt(d.seq), 8);
  buf.writeBigUInt64BE(d.sentNs, 16);
  tag.copy(buf, 24, 0, COOKIE_TAG_BYTES);
}

/** The header of a datagram from this run, or null (too short, another program's, another run's). */
export function readLonghaulHeader(buf: Buffer, tag: Buffer): LonghaulDatagram | null {
  if (buf.length < LONGHAUL_HEADER_BYTES || buf.readUInt32BE(0) !== MAGIC) return null;
  if (buf.compare(tag, 0, COOKIE_TAG_BYTES, 24, 24 + COOKIE_TAG_BYTES) !== 0) return null;
  const seq = buf.readBigUInt64BE(8);
  if (seq > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return { streamId: buf.readUInt32BE(4), seq: Number(seq), sentNs: buf.readBigUInt64BE(16) };
}

interface Iperf3Datagram {
  seq: number;
  /** The sender's wall clock, ns since the epoch (from seconds and microseconds). */
  sentNs: bigint;
}

/** iperf3's header size: 12 bytes, or 16 with --udp-counters-64bit. */
function iperf3HeaderBytes(counters64: boolean): number {
  return counters64 ? 16 : 12;
}

export function writeIperf3Header(buf: Buffer, seq: number, wallNs: bigint, counters64: boolean): void {
  const us = wallNs / 1000n;
  buf.writeUInt32BE(Number((us / 1_000_000n) & 0xffffffffn), 0);
  buf.writeUInt32BE(Number(us % 1_000_000n), 4);
  if (counters64) buf.writeBigUInt64BE(BigInt(seq), 8);
  else buf.writeUInt32BE(seq >>> 0, 8);
}

/** iperf3's header, or null when the datagram is shorter than it. */
export function readIperf3Header(buf: Buffer, counters64: boolean): Iperf3Datagram | null {
  if (buf.length < iperf3HeaderBytes(counters64)) return null;
  const sec = BigInt(buf.readUInt32BE(0));
  const usec = BigInt(buf.readUInt32BE(4));
  const seq = counters64 ? buf.readBigUInt64BE(8) : BigInt(buf.readUInt32BE(8));
  if (seq > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return { seq: Number(seq), sentNs: (sec * 1_000_000n + usec) * 1000n };
}

/*
 * iperf3's UDP "connect" (src/iperf_udp.c, iperf.h): the client's stream socket, connected to the
 * server's port, sends a 4-byte int and waits for the server's 4-byte reply from the socket the
 * server then connects back to it. iperf3 writes the ints in its host's byte order: on the
 * little-endian PCs it runs on, the message is the bytes "9876" and the reply "6789"; a server
 * before 3.1 replied 987654321. Both orders are accepted on reading, so a big-endian peer is too.
 */
const IPERF3_UDP_CONNECT_MSG = 0x36373839;
const IPERF3_UDP_CONNECT_REPLY = 0x39383736;
const IPERF3_UDP_LEGACY_REPLY = 987654321;

function int32LE(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value >>> 0, 0);
  return b;
}

function isInt32Either(buf: Buffer, values: readonly number[]): boolean {
  if (buf.length !== 4) return false;
  const le = buf.readUInt32LE(0);
  const be = buf.readUInt32BE(0);
  return values.some((v) => v === le || v === be);
}

/** The client's connect message, as an iperf3 on a little-endian PC writes it. */
export const iperf3ConnectMessage = (): Buffer => int32LE(IPERF3_UDP_CONNECT_MSG);
/** The server's reply, likewise. */
export const iperf3ConnectReply = (): Buffer => int32LE(IPERF3_UDP_CONNECT_REPLY);
export const isIperf3ConnectMessage = (buf: Buffer): boolean => isInt32Either(buf, [IPERF3_UDP_CONNECT_MSG]);
export const isIperf3ConnectReply = (buf: Buffer): boolean => isInt32Either(buf, [IPERF3_UDP_CONNECT_REPLY, IPERF3_UDP_LEGACY_REPLY]);

/** This PC's wall clock in ns since the epoch, read from the monotonic clock (so it never steps back during a run). */
export function wallClock(now: () => bigint = () => process.hrtime.bigint()): () => bigint {
  const offset = BigInt(Date.now()) * 1_000_000n - now();
  return () => now() + offset;
}
