import { payloadFraction } from '../../electron/proxy/stages/rate.js';

/**
 * The link-accuracy matrix of issue 5, as data: rate × RTT × window × loss,
 * the model ceiling of each cell, and how long to run it (long enough for
 * slow start to finish at 1.3 s RTT, short at 100 ms).
 */
export interface LinkCell {
  rateBitsPerSec: number;
  rttMs: number;
  /** The TCP window, bytes (8760, 64 KiB, or the path's BDP). */
  windowBytes: number;
  windowLabel: string;
  lossRatio: number;
  /** How long to run this cell, seconds. */
  seconds: number;
}

/** What one path measured in one cell. Rates in bit/s; null = not measured. */
export interface PathMeasurement {
  /** Received rate over the second half of the run (after the ramp). */
  steadyBitsPerSec: number | null;
  /** Received bytes over the whole run, from the first connect, including slow start and stalls. */
  wholeRunBitsPerSec: number | null;
  note?: string;
}

/** One way of carrying a cell's traffic: the proxy on loopback, or the kernel WAN harness (test/wan/). */
export type PathRunner = (cell: LinkCell) => Promise<PathMeasurement>;

export function bdpBytes(rateBitsPerSec: number, rttMs: number): number {
  return Math.round((rateBitsPerSec * rttMs) / 8000);
}

/**
 * min(rate × payload share, window / RTT), bit/s of TCP payload: the model, which applies to
 * cells without loss. Both paths count the rate on the wire (the proxy's rate stage and the
 * kernel harness's tbf: 66 header bytes per 1448-byte segment), so one model serves both.
 */
export function modelCeiling(cell: LinkCell): number {
  return Math.min(cell.rateBitsPerSec * payloadFraction(), (cell.windowBytes * 8 * 1000) / cell.rttMs);
}

export function linkMatrix(): LinkCell[] {
  const cells: LinkCell[] = [];
  for (const rateBitsPerSec of [4e6, 50e6]) {
    for (const rttMs of [100, 1300]) {
      const windows: [number, string][] = [[8760, '8760 B'], [65_536, '64 KiB'], [bdpBytes(rateBitsPerSec, rttMs), 'BDP']];
      for (const [windowBytes, windowLabel] of windows) {
        for (const lossRatio of [0, 0.01]) {
          cells.push({ rateBitsPerSec, rttMs, windowBytes, windowLabel, lossRatio, seconds: rttMs >= 1000 ? 16 : 5 });
        }
      }
    }
  }
  return cells;
}

export function cellName(c: LinkCell): string {
  return `${c.rateBitsPerSec / 1e6} Mbit/s, RTT ${c.rttMs} ms, window ${c.windowLabel}${c.windowLabel === 'BDP' ? ` (${c.windowBytes} B)` : ''}, loss ${c.lossRatio * 100} %`;
}
