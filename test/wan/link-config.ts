/**
 * The WAN harness's link settings: validation, the tbf parameters derived from
 * them, and the throughput model tests compare against.
 */
import { ArgumentError } from '../../electron/util/errors.js';

/** What a test asks of the emulated link. */
export interface WanLinkOptions {
  /** Bottleneck rate in each direction, bits per second (tbf, counted on Ethernet frames). */
  rateBitsPerSec: number;
  /** Rate B→A when it differs from A→B; defaults to `rateBitsPerSec`. */
  reverseRateBitsPerSec?: number;
  /** Delay added to every packet in each direction, milliseconds (the NFQUEUE helper). */
  oneWayDelayMs: number;
  /** Share of packets dropped in each direction, percent 0–100 (iptables statistic). Default 0. */
  lossPercent?: number;
  /**
   * `random` (default): each packet is dropped with that probability (`--mode random`).
   * `periodic`: exactly every round(100 / lossPercent)-th packet of each direction
   * (`--mode nth`), the same sequence every run: what the proxy's `periodic` loss does.
   */
  lossPattern?: 'random' | 'periodic';
  /**
   * Bytes the bottleneck may queue before it drops (tbf's backlog). Default: one
   * bandwidth-delay product (rate × 2 × delay), at least 16 full frames.
   */
  queueBytes?: number;
}

/** The validated settings with every default filled in. */
export interface ResolvedLinkConfig {
  rateBitsPerSec: number;
  reverseRateBitsPerSec: number;
  oneWayDelayMs: number;
  lossPercent: number;
  lossPattern: 'random' | 'periodic';
  queueBytes: number;
}

/** Ethernet frame of a full-sized TCP segment at MTU 1500: what tbf counts. */
const FULL_FRAME_BYTES = 1514;

/**
 * TCP payload per byte tbf counts, for MTU 1500 with timestamps (MSS 1448,
 * 52 bytes of IP+TCP headers, 14 of Ethernet): 1448 / 1514 ≈ 0.956. A
 * 4 Mbit/s link carries at most ≈ 3.83 Mbit/s of application data.
 */
export const TCP_PAYLOAD_FRACTION = 1448 / FULL_FRAME_BYTES;

function checkNumber(name: string, v: unknown, min: number, max: number, unit: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw new ArgumentError(`WAN link: ${name} must be a number from ${min} to ${max} ${unit}, got ${String(v)}`, name);
  }
  return v;
}

/** Validate options and fill defaults; throws ArgumentError (LH_ERR_BAD_ARGUMENT) on bad input. */
export function resolveLinkConfig(opts: WanLinkOptions): ResolvedLinkConfig {
  const rate = checkNumber('rateBitsPerSec', opts.rateBitsPerSec, 8_000, 10_000_000_000, 'bit/s');
  const reverse = checkNumber('reverseRateBitsPerSec', opts.reverseRateBitsPerSec ?? rate, 8_000, 10_000_000_000, 'bit/s');
  const delay = checkNumber('oneWayDelayMs', opts.oneWayDelayMs, 0, 60_000, 'ms');
  const loss = checkNumber('lossPercent', opts.lossPercent ?? 0, 0, 100, '%');
  const pattern = opts.lossPattern ?? 'random';
  if (pattern !== 'random' && pattern !== 'periodic')
    throw new ArgumentError(`WAN link: lossPattern must be random or periodic, got ${String(pattern)}`, 'lossPattern');
  const bdpBytes = (Math.max(rate, reverse) / 8) * ((2 * delay) / 1000);
  const queue = checkNumber(
    'queueBytes',
    opts.queueBytes ?? Math.max(Math.ceil(bdpBytes), 16 * FULL_FRAME_BYTES),
    2 * FULL_FRAME_BYTES,
    1_000_000_000,
    'bytes',
  );
  return { rateBitsPerSec: rate, reverseRateBitsPerSec: reverse, oneWayDelayMs: delay, lossPercent: loss, lossPattern: pattern, queueBytes: queue };
}

/** tbf arguments for one direction: `tc qdisc add dev X root tbf <these>`. */
export function tbfArgs(rateBitsPerSec: number, queueBytes: number): string[] {
  // The bucket holds at least two full frames, more at high rates so the 1-4 ms
  // timer granularity of tbf does not cap the rate below what was asked.
  const burstBytes = Math.max(2 * FULL_FRAME_BYTES, Math.ceil(rateBitsPerSec / 8 / 500));
  return ['rate', `${Math.round(rateBitsPerSec)}bit`, 'burst', `${burstBytes}`, 'limit', `${Math.ceil(queueBytes + burstBytes)}`];
}

/** iptables' statistic match takes a probability 0–1. */
function lossProbability(lossPercent: number): string {
  return (lossPercent / 100).toFixed(6);
}

/**
 * iptables statistic arguments that drop `lossPercent` % of what the rule sees. Periodic: the
 * N-th, 2N-th … packet (N = round(100 / lossPercent)); never the first, which is a SYN.
 */
export function lossMatchArgs(lossPercent: number, pattern: 'random' | 'periodic'): string[] {
  if (pattern === 'random') return ['-m', 'statistic', '--mode', 'random', '--probability', lossProbability(lossPercent)];
  const every = Math.max(1, Math.round(100 / lossPercent));
  return ['-m', 'statistic', '--mode', 'nth', '--every', String(every), '--packet', String(every - 1)];
}

/** Round-trip time the harness adds, seconds (the veths and router add microseconds). */
export function modelRttSeconds(cfg: Pick<ResolvedLinkConfig, 'oneWayDelayMs'>): number {
  return (2 * cfg.oneWayDelayMs) / 1000;
}

/**
 * The model ceiling of one TCP stream, bits per second of payload:
 * min(rate × payload fraction, window × 8 / RTT). `windowBytes` null means
 * autotuning decides, so only the rate bounds it.
 */
export function modelCeilingBitsPerSec(rateBitsPerSec: number, windowBytes: number | null, rttSeconds: number): number {
  const rateLimit = rateBitsPerSec * TCP_PAYLOAD_FRACTION;
  if (windowBytes === null || rttSeconds <= 0) return rateLimit;
  return Math.min(rateLimit, (windowBytes * 8) / rttSeconds);
}
