/**
 * The path's capacity as Longhaul measured it (`--capacity`): the result's
 * `capacity` and what a run measuring it tells a display. Types only (result.ts
 * imports them); the words are in capacity.ts.
 */
/**
 * Why the figure is only a floor: the tuned run's own windows, it never left slow start before its time ran out,
 * or the tuned run met a limit on a PC, not the path's (a CPU, the link emulator, the receiving application).
 */
export type CapacityBound = 'windows' | 'slow-start' | 'cpu' | 'emulator' | 'receiver' | 'loss' | null;

/** The byte series a capacity was read from (CapacityInfo.series; electron/analysis/arrival-series.ts). */
export type CapacitySeries = 'receiver-segments' | 'receiver-in-order';

/** longhaul.result/1 `capacity` (docs/results.md). */
export interface CapacityInfo {
  /** Which direction was measured (the user's run's; a bidir run measures controller→responder). */
  direction: 'controllerToResponder' | 'responderToController';
  /** The bottleneck's payload rate (TCP payload delivered to the receiving application), bit/s; null: not measured (see `failure`). */
  payloadBitsPerSecond: number | null;
  /** The same on the wire as IP packets (payload × path MTU ÷ MSS), bit/s; null where the MSS or the path MTU is unknown. */
  wireBitsPerSecond: number | null;
  /** How the wire rate was derived, in words ("IP packets: payload × 1500 ÷ 1448; Ethernet framing not counted"), or why unknown. */
  wireConvention: string;
  /** `tuned-streams`: Longhaul's own run, its receiver's rate after slow start. */
  method: 'tuned-streams';
  /**
   * The receiver's byte series the rate was read from: `receiver-segments`, data segments as they arrived × MSS
   * (Linux receivers; what crossed the bottleneck, no wait for a hole to fill), or `receiver-in-order`, the bytes
   * the receiving application read (elsewhere). Absent in older results: `receiver-in-order`.
   */
  series?: CapacitySeries;
  /** The tuned run's streams and the window Longhaul set on each (advertised-window clamp and buffers, both ends), bytes. */
  streams: number;
  windowBytes: number;
  /** The RTT the phase was planned with, ms (the user's run's minimum RTT); null: unknown, then the phase ran its longest. */
  plannedRttMs: number | null;
  /** Seconds after the tuned run's start when slow start was over, and the span the rate was measured over. */
  slowStartEndSeconds: number | null;
  measuredFromSeconds: number | null;
  measuredToSeconds: number | null;
  /** Wall-clock seconds the whole phase took (connect, slow start, measure, stop). */
  phaseSeconds: number;
  /** The spread of the rate over the measured span: lowest and highest rate of its RTT-long slices, bit/s; null with fewer than two. */
  sliceRange: { min: number; max: number } | null;
  /** The tuned run's receiver rate per slice (an RTT, at least the sample interval): slice end s, bit/s; the last 120. */
  slices?: { t: number; bitsPerSecond: number }[];
  /** Set when the figure is only a floor and why; null when the path, not the tuned run, was the limit. */
  lowerBound: CapacityBound;
  /** The tuned run failed or was stopped before a figure: its words. Absent when a figure was measured. */
  failure?: string;
}

/** What a run measuring the path tells a display: the tuned phase began (its streams, window, planned RTT), or its figure. */
export type CapacityProgress =
  { state: 'measuring'; streams: number; windowBytes: number; seconds: number; rttS: number | null } | { state: 'done'; info: CapacityInfo };
