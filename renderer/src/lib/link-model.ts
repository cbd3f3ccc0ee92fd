/**
 * The model the Link screen shows while the user types: one TCP stream
 * cannot carry more than one window per round trip, so the ceiling is
 * min(link rate, window / RTT) per stream, and the window needed to fill the
 * link is its bandwidth-delay product (BDP = rate × RTT).
 */

export interface LinkModelInput {
  rateBitsPerSec: number;
  rttMs: number;
  /** null = OS default (autotuning): the effective window is not known in advance. */
  windowBytes: number | null;
  streams: number;
}

export interface LinkModel {
  /** Bytes in flight needed to fill the link. */
  bdpBytes: number;
  /** Per-stream ceiling from the window, bit/s; null when the window is the OS default or RTT is 0. */
  windowLimitBitsPerSec: number | null;
  /** min(rate, streams × window/RTT), bit/s; null when the window is unknown (OS default). */
  ceilingBitsPerSec: number | null;
  /** What bounds the ceiling. */
  limitedBy: 'rate' | 'window' | 'unknown';
  /** The window is smaller than the BDP per stream: the run cannot fill the link. */
  windowTooSmall: boolean;
}

export function linkModel(i: LinkModelInput): LinkModel {
  const rttS = i.rttMs / 1000;
  const bdpBytes = (i.rateBitsPerSec * rttS) / 8;
  if (i.windowBytes === null) {
    return { bdpBytes, windowLimitBitsPerSec: null, ceilingBitsPerSec: null, limitedBy: 'unknown', windowTooSmall: false };
  }
  if (rttS <= 0) {
    return { bdpBytes, windowLimitBitsPerSec: null, ceilingBitsPerSec: i.rateBitsPerSec, limitedBy: 'rate', windowTooSmall: false };
  }
  const windowLimitBitsPerSec = (i.windowBytes * 8) / rttS;
  const all = windowLimitBitsPerSec * Math.max(1, i.streams);
  const windowBound = all < i.rateBitsPerSec;
  return {
    bdpBytes,
    windowLimitBitsPerSec,
    ceilingBitsPerSec: windowBound ? all : i.rateBitsPerSec,
    limitedBy: windowBound ? 'window' : 'rate',
    windowTooSmall: i.windowBytes * Math.max(1, i.streams) < bdpBytes,
  };
}
