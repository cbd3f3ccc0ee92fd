/**
 * The model the Link screen shows while the user types: one TCP stream
 * cannot carry more than one window per round trip, so the ceiling is
 * min(link rate × payload share, window / RTT) per stream, and the window
 * needed to fill the link is its bandwidth-delay product (BDP = rate × RTT).
 *
 * The rate is the link's (wire) rate: every 1448-byte segment also carries 66
 * header bytes (Ethernet 14, IPv4 20, TCP with timestamps 32), so a 4 Mbit/s
 * link carries at most 4 × 1448 / 1514 ≈ 3.83 Mbit/s of TCP payload: the
 * same model the proxy's results and bench:link use (electron/contract/wire.ts).
 */
import { DEFAULT_MSS_BYTES, WIRE_OVERHEAD_BYTES, payloadFraction } from '../../../electron/contract/wire.js';

export { DEFAULT_MSS_BYTES, WIRE_OVERHEAD_BYTES };

interface LinkModelInput {
  rateBitsPerSec: number;
  rttMs: number;
  /** null = OS default (autotuning): the effective window is not known in advance. */
  windowBytes: number | null;
  streams: number;
  /** Segment size, bytes (default 1448: a 1500-byte MTU with timestamps). */
  mssBytes?: number;
}

interface LinkModel {
  /** Bytes in flight needed to fill the link. */
  bdpBytes: number;
  /** Per-stream ceiling from the window, bit/s; null when the window is the OS default or RTT is 0. */
  windowLimitBitsPerSec: number | null;
  /** TCP payload the link's rate carries at most, bit/s: rate × mss / (mss + 66). */
  payloadRateBitsPerSec: number;
  /** min(payload rate, streams × window/RTT), bit/s of payload; null when the window is unknown (OS default). */
  ceilingBitsPerSec: number | null;
  /** What bounds the ceiling. */
  limitedBy: 'rate' | 'window' | 'unknown';
  /** The window is smaller than the BDP per stream: the run cannot fill the link. */
  windowTooSmall: boolean;
}

export function linkModel(i: LinkModelInput): LinkModel {
  const rttS = i.rttMs / 1000;
  const bdpBytes = (i.rateBitsPerSec * rttS) / 8;
  const mss = i.mssBytes ?? DEFAULT_MSS_BYTES;
  const payloadRateBitsPerSec = i.rateBitsPerSec * payloadFraction(mss);
  if (i.windowBytes === null) {
    return { bdpBytes, payloadRateBitsPerSec, windowLimitBitsPerSec: null, ceilingBitsPerSec: null, limitedBy: 'unknown', windowTooSmall: false };
  }
  if (rttS <= 0) {
    return { bdpBytes, payloadRateBitsPerSec, windowLimitBitsPerSec: null, ceilingBitsPerSec: payloadRateBitsPerSec, limitedBy: 'rate', windowTooSmall: false };
  }
  const windowLimitBitsPerSec = (i.windowBytes * 8) / rttS;
  const all = windowLimitBitsPerSec * Math.max(1, i.streams);
  const windowBound = all < payloadRateBitsPerSec;
  return {
    bdpBytes,
    payloadRateBitsPerSec,
    windowLimitBitsPerSec,
    ceilingBitsPerSec: windowBound ? all : payloadRateBitsPerSec,
    limitedBy: windowBound ? 'window' : 'rate',
    windowTooSmall: i.windowBytes * Math.max(1, i.streams) < bdpBytes,
  };
}
