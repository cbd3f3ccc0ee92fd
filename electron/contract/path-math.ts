/**
 * Path arithmetic shared by the engine (diagnosis, advice), the reports and the
 * renderer: the bandwidth-delay product, the ceiling a window imposes, and the
 * window scale a window needs. Rates in bit/s (decimal), sizes in bytes, times in seconds.
 */

/** Bytes in flight needed to keep a path busy: rate × RTT / 8 (unrounded). */
export function bdpBytes(rateBitsPerSec: number, rttSeconds: number): number {
  return (rateBitsPerSec * rttSeconds) / 8;
}

/** A byte count rounded up for a setting, ignoring float dust (4 Mbit/s × 1.3 s is 650,000, not 650,001). */
export function wholeBytesUp(bytes: number): number {
  return Math.ceil(bytes - 1e-6);
}

/** The most one window can carry per round trip: window × 8 / RTT, bit/s. */
export function windowCeilingBitsPerSec(windowBytes: number, rttSeconds: number): number {
  return (windowBytes * 8) / rttSeconds;
}

/**
 * A payload rate above this multiple of a stated wire rate says that rate is not the path's (payload always
 * travels below the wire rate): a --path-rate typed wrong, or a run that bypassed the emulator. The verdict,
 * the what-if and the advice then leave the rate out, and say so.
 */
const RATE_CONTRADICTED_FACTOR = 1.1;

/** Whether a measured payload rate contradicts a stated wire rate (both bit/s; unknown contradicts nothing). */
export function rateContradicted(statedBitsPerSec: number | null, measuredBitsPerSec: number | null): boolean {
  return statedBitsPerSec !== null && measuredBitsPerSec !== null && measuredBitsPerSec > RATE_CONTRADICTED_FACTOR * statedBitsPerSec;
}

/** Largest 16-bit TCP window: anything above needs window scaling (RFC 7323). */
export const MAX_UNSCALED_WINDOW = 65_535;

/** The largest window RFC 7323 allows one connection: 65,535 × 2^14 bytes. Above it a path needs more streams. */
export const MAX_SCALED_WINDOW = 1_073_725_440;

/** A window per stream above RFC 7323's maximum, as streams × window: `{ streams: 2, windowBytes: 562,500,000 }`; unchanged when it fits. */
export function splitWindow(windowBytes: number, streams: number): { streams: number; windowBytes: number } {
  if (windowBytes <= MAX_SCALED_WINDOW) return { streams, windowBytes };
  const factor = Math.ceil(windowBytes / MAX_SCALED_WINDOW);
  return { streams: streams * factor, windowBytes: Math.ceil(windowBytes / factor) };
}

/** The smallest RFC 7323 window-scale shift that lets a window of this size be advertised. */
export function windowScaleShift(windowBytes: number): number {
  let shift = 0;
  while (MAX_UNSCALED_WINDOW * 2 ** shift < windowBytes && shift < 14) shift++;
  return shift;
}
