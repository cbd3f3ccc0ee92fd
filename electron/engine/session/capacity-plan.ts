/**
 * How Longhaul tunes its own run to measure the path (`--capacity`): the
 * parameters from the user's run (its direction and minimum RTT), and the
 * figure from what the tuned run's receiver saw. Pure: capacity-run.ts runs it.
 *
 * Streams × window: CAPACITY_STREAMS streams, each with a window that would
 * carry COVER_BITS_PER_SEC over all of them at the planned RTT, between
 * MIN_WINDOW and MAX_WINDOW. Windows are set on both ends before the handshake
 * (the advertised-window clamp and buffers of twice it, as `-w` does; on
 * Windows the addon's buffers), so the OS's default or capped autotuning is
 * not what is measured. A path faster than the windows carry gives a floor,
 * said as one (`lowerBound: 'windows'`).
 */
import type { CapacityBound, CapacityInfo, CapacitySeries } from '../../contract/capacity-info.js';
import type { LimiterVerdict, LonghaulResult } from '../../contract/result.js';
import type { CapacityEstimate } from '../../analysis/capacity-estimate.js';
import { DEFAULT_PARAMS, type RunParams } from '../../protocol/run-params.js';

const CAPACITY_STREAMS = 4;
/** The rate the windows are sized to carry at the planned RTT, bit/s (more is reported as a floor). */
const COVER_BITS_PER_SEC = 1e9;
const MIN_WINDOW_BYTES = 512 * 1024;
const MAX_WINDOW_BYTES = 16 * 1024 * 1024;
/** RTTs allowed for slow start before the phase gives up with a floor (4 MiB from IW10 doubles in ≈ 9). */
const SLOW_START_RTTS = 14;
const MIN_PHASE_S = 4;
const MAX_PHASE_S = 60;
/** Without a known RTT: the longest phase, slices of 1 s. */
const UNKNOWN_RTT_SLICE_S = 1;

/** A tuned phase: its run parameters and the slice length the estimate uses (the RTT, at least the sample interval), s. */
export interface CapacityPlan {
  params: RunParams;
  direction: CapacityInfo['direction'];
  rttS: number | null;
  sliceS: number;
}

/** The user's run's minimum RTT, s (the diagnosis, else the delay figures); null where no end said. */
export function plannedRtt(r: LonghaulResult): number | null {
  for (const d of r.diagnosis ?? []) {
    const rtt = d.numbers.minRttSeconds ?? d.numbers.rttSeconds;
    if (rtt && rtt > 0) return rtt;
  }
  const idle = r.delay?.idleRttMs ?? null;
  return idle !== null && idle > 0 ? idle / 1000 : null;
}

/** The tuned run's parameters for the path of `main`. */
export function planCapacity(main: LonghaulResult): CapacityPlan {
  const rttS = plannedRtt(main);
  const direction = main.params.direction === 'reverse' ? 'reverse' : 'forward';
  const perStream = rttS === null ? 4 * 1024 * 1024 : (COVER_BITS_PER_SEC / 8) * (rttS / CAPACITY_STREAMS);
  const windowBytes = Math.round(Math.min(MAX_WINDOW_BYTES, Math.max(MIN_WINDOW_BYTES, perStream)));
  const intervalSeconds = rttS === null ? 0.5 : Math.min(0.5, Math.max(0.1, Math.round((rttS / 4) * 10) / 10));
  const sliceS = rttS === null ? UNKNOWN_RTT_SLICE_S : Math.max(rttS, intervalSeconds);
  const seconds = rttS === null ? MAX_PHASE_S / 2 : Math.min(MAX_PHASE_S, Math.max(MIN_PHASE_S, Math.ceil((SLOW_START_RTTS + 4) * sliceS + 1)));
  const params: RunParams = {
    ...DEFAULT_PARAMS,
    streams: CAPACITY_STREAMS,
    bufferBytes: main.params.bufferBytes,
    windowBytes,
    bytes: null,
    seconds,
    direction,
    intervalSeconds,
    purpose: 'path-capacity',
    // The user's congestion control, if asked for, is part of the path's sender: kept. MSS, pacing and omit are not.
    ...(main.params.congestionControl ? { congestionControl: main.params.congestionControl } : {}),
  };
  return { params, direction: direction === 'reverse' ? 'responderToController' : 'controllerToResponder', rttS, sliceS };
}

/** Which side receives in the tuned run. */
export function receiverOf(plan: CapacityPlan): 'controller' | 'responder' {
  return plan.direction === 'controllerToResponder' ? 'responder' : 'controller';
}

/** The tuned run's own verdicts that make its figure a PC's limit, not the path's. */
const RUN_LIMITS: Partial<Record<LimiterVerdict, CapacityBound>> = {
  'cpu-limited': 'cpu',
  'emulator-limited': 'emulator',
  'receiver-limited': 'receiver',
  'loss-limited': 'loss',
};

/** Most bytes of IP and TCP headers (with options) a full segment carries: above it, segments are not path-MTU sized. */
const MAX_HEADER_BYTES = 120;

/**
 * The wire rate of a payload rate as IP packets: a full segment is the path MTU and carries the sending MSS, so
 * wire = payload × path MTU ÷ MSS. Where segments are not MTU-sized (loopback's 64 KiB MTU, an MSS clamped below
 * it) the header per segment is unknown, and so is the wire rate.
 */
export function wireRate(payload: number | null, tuned: LonghaulResult | null): { wire: number | null; wireConvention: string } {
  const mss = tuned?.mss?.sendMssBytes?.min ?? null;
  const pmtu = tuned?.mss?.pmtuBytes?.min ?? null;
  if (!mss || !pmtu) return { wire: null, wireConvention: `unknown: ${mss ? 'the path MTU' : 'the MSS'} was not reported by the sending OS` };
  if (pmtu - mss < 20 || pmtu - mss > MAX_HEADER_BYTES)
    return { wire: null, wireConvention: `unknown: segments of ${mss} bytes do not fill the path MTU of ${pmtu} bytes, so the headers per packet are unknown` };
  return {
    wire: payload === null ? null : (payload * pmtu) / mss,
    wireConvention: `IP packets: payload × path MTU ${pmtu} ÷ MSS ${mss} bytes; link-layer framing (Ethernet's 14–38 bytes) not counted`,
  };
}

/** The result's `capacity` from what the tracker saw and the tuned run's result (its MSS and path MTU for the wire rate). */
export function capacityInfo(
  plan: CapacityPlan,
  e: CapacityEstimate,
  slices: { t: number; bitsPerSecond: number }[],
  tuned: LonghaulResult | null,
  phaseSeconds: number,
  failure: string | null,
  series: CapacitySeries = 'receiver-in-order',
): CapacityInfo {
  const payload = e.fromS !== null && e.toS !== null && e.toS > e.fromS ? e.bitsPerSecond : null;
  const { wire, wireConvention } = wireRate(payload, tuned);
  const windowsCarry = plan.rttS ? (plan.params.streams * (plan.params.windowBytes ?? 0) * 8) / plan.rttS : null;
  let lowerBound: CapacityBound = null;
  const verdict = tuned?.diagnosis?.find((d) => d.direction === plan.direction)?.verdict;
  if (payload !== null && verdict && verdict in RUN_LIMITS) lowerBound = RUN_LIMITS[verdict] ?? null;
  else if (payload !== null && windowsCarry !== null && payload >= 0.85 * windowsCarry) lowerBound = 'windows';
  else if (payload !== null && e.state === 'slow-start') lowerBound = 'slow-start';
  const info: CapacityInfo = {
    direction: plan.direction,
    payloadBitsPerSecond: payload,
    wireBitsPerSecond: wire,
    wireConvention,
    method: 'tuned-streams',
    series,
    streams: plan.params.streams,
    windowBytes: plan.params.windowBytes ?? 0,
    plannedRttMs: plan.rttS === null ? null : plan.rttS * 1000,
    slowStartEndSeconds: e.slowStartEndS,
    measuredFromSeconds: payload !== null ? e.fromS : null,
    measuredToSeconds: payload !== null ? e.toS : null,
    phaseSeconds,
    sliceRange: e.sliceRange,
    slices: slices.map((x) => ({ t: Math.round(x.t * 1000) / 1000, bitsPerSecond: Math.round(x.bitsPerSecond) })),
    lowerBound,
  };
  if (payload === null) info.failure = failure ?? 'the tuned run ended before its rate stopped growing';
  return info;
}
