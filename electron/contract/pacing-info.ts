/**
 * How a run's senders were paced (`--bitrate`), as `longhaul.result/1` records it (part of
 * result.ts, which re-exports these types). docs/results.md, "pacing".
 *
 * The asked rate is PER STREAM (as iperf3's -b): `-P 4 -b 5M` asks 5 Mbit/s of payload of each
 * of the 4 streams, 20 Mbit/s in all.
 */
import { formatRateTick } from './units.js';

/** The words a result, a report and the UI use for each way a stream was paced. */
export const PACING_KERNEL = 'kernel SO_MAX_PACING_RATE' as const;
export const PACING_OWN = "Longhaul's own pacing" as const;

/**
 * Which mechanism paced a side's sending streams: the kernel's cap (Linux), Longhaul's own
 * token bucket in its byte loop (elsewhere, or where the kernel refused), `mixed` when a side's
 * streams differed, `unknown` when the side did not say (an older peer).
 */
export type PacingMechanism = typeof PACING_KERNEL | typeof PACING_OWN | 'mixed' | 'unknown';

/** One stream end's pacing, as its worker applied it. */
export interface StreamPacing {
  mechanism: typeof PACING_KERNEL | typeof PACING_OWN;
  /** Why the kernel did not pace it (own pacing), else null. */
  reason: string | null;
  /** The cap the kernel reads back (getsockopt SO_MAX_PACING_RATE), bytes/s; null where not read. */
  kernelCapBytesPerSec: number | null;
}

/** One side that sent: how its streams were paced and what the kernel reported. */
export interface PacingSide {
  side: 'controller' | 'responder';
  mechanism: PacingMechanism;
  /** How many of this side's sending streams reported. */
  streams: number;
  /** Why the kernel did not pace (the first reason given), else null. */
  reason: string | null;
  /**
   * The highest TCP_INFO pacing rate (tcpi_pacing_rate) the kernel reported on this side's sending
   * streams during the transfer, payload bits/s; null where the OS does not report one. With the
   * kernel's cap set it reads at most the cap.
   */
  kernelPacingBitsPerSec: number | null;
}

export interface PacingInfo {
  /** The asked rate, payload bits/s per stream. */
  requestedBitsPerSec: number;
  /** Always 'per stream' (the rate's scope, said where it is shown). */
  scope: 'per stream';
  /** requestedBitsPerSec × the streams of one direction: the most that direction can carry. */
  totalBitsPerSec: number;
  sides: PacingSide[];
  /** One line for reports: the rate, its scope and how each side applied it. */
  note: string;
}

/** A rate as a -b value: `2M`, `1.5M`, `640K`. */
export function bitrateFlag(bps: number): string {
  return bps >= 1e6 ? `${Number((bps / 1e6).toPrecision(3))}M` : `${Math.max(1, Math.round(bps / 1e3))}K`;
}

/** The asked rate in the words every output uses: `5 Mbit/s per stream`. */
export function bitrateText(bitsPerSec: number): string {
  return `${formatRateTick(bitsPerSec)} per stream`;
}
