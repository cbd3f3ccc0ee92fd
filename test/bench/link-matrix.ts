import { payloadFraction } from '../../electron/proxy/stages/rate.js';

/**
 * The link-accuracy matrix, as data: rate × RTT × window × loss,
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
  /**
   * Which segments are lost (both paths alike): `periodic`, every 1/lossRatio-th (the proxy's
   * periodic pattern, iptables `--mode nth` on the kernel harness: the same losses every run),
   * or `random` (absent = random). bench:link compares the paths on `periodic` by default:
   * a random 1 % at a 1.3 s RTT is a handful of losses per run, and the run-to-run spread of
   * either path alone is wider than the ±15 % the two are compared on.
   */
  lossPattern?: 'random' | 'periodic';
  /** How long to run this cell, seconds. */
  seconds: number;
  /**
   * The steady-state part: the run's last this many seconds, a whole number of RTTs (a
   * window-limited flow delivers one window per RTT: a part that is not a whole number of
   * RTTs reads up to one window too few or too many — 0.975 of the model for 64 KiB over
   * 8 s at 1.3 s RTT). Absent: the second half, rounded down to whole RTTs.
   */
  steadySeconds?: number;
}

/** The steady-state part of a cell, seconds: whole RTTs, at most the second half of the run. */
export function steadySecondsOf(cell: LinkCell): number {
  if (cell.steadySeconds !== undefined) return cell.steadySeconds;
  const rtt = cell.rttMs / 1000;
  return Math.max(1, Math.floor(cell.seconds / 2 / rtt)) * rtt;
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

/**
 * How long a cell runs, seconds: long enough that its second half is past slow start (from
 * 10 × 1448 B, doubling per RTT: a 650,000 B window takes ~6 RTTs, 8,125,000 B ~10 RTTs, 13 s
 * at 1.3 s), and, with loss, long enough for tens of loss events (at 1 % and Reno's rate,
 * one every ~100 segments: ~1 s at 100 ms RTT, ~10 s at 1.3 s), within a matrix of ~10 minutes.
 */
function cellSeconds(rateBitsPerSec: number, rttMs: number, windowLabel: string, lossRatio: number): number {
  if (rttMs < 1000) return lossRatio > 0 ? 30 : 5;
  if (lossRatio > 0) return 48;
  if (windowLabel !== 'BDP') return 16;
  return rateBitsPerSec > 10e6 ? 32 : 24;
}

export function linkMatrix(lossPattern: 'random' | 'periodic' = 'random'): LinkCell[] {
  const cells: LinkCell[] = [];
  for (const rateBitsPerSec of [4e6, 50e6]) {
    for (const rttMs of [100, 1300]) {
      const windows: [number, string][] = [
        [8760, '8760 B'],
        [65_536, '64 KiB'],
        [bdpBytes(rateBitsPerSec, rttMs), 'BDP'],
      ];
      for (const [windowBytes, windowLabel] of windows) {
        for (const lossRatio of [0, 0.01]) {
          const seconds = cellSeconds(rateBitsPerSec, rttMs, windowLabel, lossRatio);
          cells.push({ rateBitsPerSec, rttMs, windowBytes, windowLabel, lossRatio, ...(lossRatio > 0 ? { lossPattern } : {}), seconds });
        }
      }
    }
  }
  return cells;
}

export function cellName(c: LinkCell): string {
  return `${c.rateBitsPerSec / 1e6} Mbit/s, RTT ${c.rttMs} ms, window ${c.windowLabel}${c.windowLabel === 'BDP' ? ` (${c.windowBytes} B)` : ''}, loss ${c.lossRatio * 100} %${c.lossRatio > 0 && c.lossPattern === 'periodic' ? ' periodic' : ''}`;
}
