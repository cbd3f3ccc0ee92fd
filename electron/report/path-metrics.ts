/**
 * Path arithmetic: the bandwidth-delay product, the rate ceiling a window
 * imposes, and the Internet2 Land Speed Record metric (bit-metres per second).
 * Rates in bit/s (decimal), sizes in bytes, times in seconds, distances in km.
 * The path arithmetic itself lives in contract/path-math.ts (the engine's advice
 * and the renderer use it too); it is re-exported here for the reports.
 */

/** The Internet2 Land Speed Record metric: throughput × distance, bit·m/s. */
export function bitMetresPerSec(rateBitsPerSec: number, distanceKm: number): number {
  return rateBitsPerSec * distanceKm * 1000;
}

const SI_PREFIXES: [number, string][] = [
  [1e18, 'exa'],
  [1e15, 'peta'],
  [1e12, 'tera'],
  [1e9, 'giga'],
  [1e6, 'mega'],
  [1e3, 'kilo'],
];

/** `5.39e15 bit·m/s (5.4 peta-bit-metres/s)`. */
export function formatBitMetres(bitMetresPerSecond: number): string {
  const sci = bitMetresPerSecond.toExponential(2).replace('e+', 'e');
  const prefix = SI_PREFIXES.find(([v]) => bitMetresPerSecond >= v);
  const words = prefix ? `${(bitMetresPerSecond / prefix[0]).toFixed(1)} ${prefix[1]}-bit-metres/s` : `${bitMetresPerSecond.toFixed(0)} bit-metres/s`;
  return `${sci} bit·m/s (${words})`;
}
