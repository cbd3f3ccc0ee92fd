/**
 * Path arithmetic: the bandwidth-delay product, the rate ceiling a window
 * imposes, and the Internet2 Land Speed Record metric (bit-metres per second).
 * Rates in bit/s (decimal), sizes in bytes, times in seconds, distances in km.
 */

/** Bytes in flight needed to keep a path busy: rate × RTT / 8. */
export function bdpBytes(rateBitsPerSec: number, rttSeconds: number): number {
  return (rateBitsPerSec * rttSeconds) / 8;
}

/** The most one window can carry per round trip: window × 8 / RTT, bit/s. */
export function windowCeilingBitsPerSec(windowBytes: number, rttSeconds: number): number {
  return (windowBytes * 8) / rttSeconds;
}

/** The Internet2 Land Speed Record metric: throughput × distance, bit·m/s. */
export function bitMetresPerSec(rateBitsPerSec: number, distanceKm: number): number {
  return rateBitsPerSec * distanceKm * 1000;
}

/** Largest 16-bit TCP window: anything above needs window scaling (RFC 7323). */
export const MAX_UNSCALED_WINDOW = 65_535;

/** The smallest RFC 7323 window-scale shift that lets a window of this size be advertised. */
export function windowScaleShift(windowBytes: number): number {
  let shift = 0;
  while (MAX_UNSCALED_WINDOW * 2 ** shift < windowBytes && shift < 14) shift++;
  return shift;
}

const SI_PREFIXES: [number, string][] = [[1e18, 'exa'], [1e15, 'peta'], [1e12, 'tera'], [1e9, 'giga'], [1e6, 'mega'], [1e3, 'kilo']];

/** `5.39e15 bit·m/s (5.4 peta-bit-metres/s)`. */
export function formatBitMetres(bitMetresPerSecond: number): string {
  const sci = bitMetresPerSecond.toExponential(2).replace('e+', 'e');
  const prefix = SI_PREFIXES.find(([v]) => bitMetresPerSecond >= v);
  const words = prefix ? `${(bitMetresPerSecond / prefix[0]).toFixed(1)} ${prefix[1]}-bit-metres/s` : `${bitMetresPerSecond.toFixed(0)} bit-metres/s`;
  return `${sci} bit·m/s (${words})`;
}
