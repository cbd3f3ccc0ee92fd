/**
 * `longhaul.result/1`: the one JSON document a run produces. Documented in
 * docs/results.md; the CLI, the app, the reports and the tests all read this.
 * Pure types (no Node imports) so the renderer can share them.
 *
 * Conventions:
 * - bytes are bytes; times are seconds (floating point); rates are bits per second.
 * - `t` values are seconds since the run's start on the clock of the side that
 *   measured them (each side starts its clock when the start is exchanged, so the
 *   two differ by about the one-way delay of the control connection).
 * - A stream's headline numbers are the receiver's view: what arrived is what counts.
 */

export const RESULT_SCHEMA = 'longhaul.result/1' as const;

export type Direction = 'forward' | 'reverse' | 'bidir';
export type Side = 'controller' | 'responder';

export interface ResultParams {
  streams: number;
  bufferBytes: number;
  windowBytes: number | null;
  bytes: number | null;
  seconds: number | null;
  direction: Direction;
  intervalSeconds: number;
}

export interface ErrorInfo {
  code: string;
  message: string;
}

/** One end's view of one stream. */
export interface EndView {
  side: Side;
  /** send: bytes handed to the kernel; receive: bytes read. */
  bytes: number;
  /** send: write calls; receive: read completions (ttcp's "calls"). */
  completions: number;
  /** Seconds since start of the first and last byte (null if none moved). */
  firstT: number | null;
  lastT: number | null;
  /** lastT - firstT, or null. */
  seconds: number | null;
  error: ErrorInfo | null;
}

export interface StreamResult {
  id: number;
  /** Which end wrote this stream's bytes. */
  sender: Side;
  /** Receiver's view: bytes received. */
  bytes: number;
  /** Receiver's view: first byte to last byte, seconds (null when unknown). */
  seconds: number | null;
  /** Receiver's read completions. */
  completions: number;
  /** bytes × 8 / seconds, or null when seconds is unknown or 0. */
  bitsPerSecond: number | null;
  send: EndView | null;
  receive: EndView | null;
}

export interface IntervalStream {
  id: number;
  /** Bytes the sender handed to the kernel in this interval (null if that side's sample is missing). */
  sentBytes: number | null;
  /** Bytes the receiver read in this interval (null if that side's sample is missing). */
  receivedBytes: number | null;
  receiveCompletions: number | null;
}

export interface IntervalResult {
  /** 1-based; interval i covers roughly ((i-1)·interval, i·interval]. The last may be shorter. */
  index: number;
  /** End of the interval, seconds since start, by the controller's clock (else the responder's). */
  t: number;
  /** Length of the interval in seconds (t minus the previous interval's t). */
  seconds: number;
  controllerT: number | null;
  responderT: number | null;
  streams: IntervalStream[];
  /** Sums over streams, null when no stream has that view. */
  sentBytes: number | null;
  receivedBytes: number | null;
}

export interface TotalResult {
  /** Bytes received over all streams. */
  bytes: number;
  /** Bytes the senders handed to their kernels. */
  sentBytes: number;
  /** Wall clock: first stream's first byte to last stream's last byte (receiver clocks). */
  seconds: number | null;
  /** Wall-clock aggregate: bytes × 8 / seconds. */
  bitsPerSecond: number | null;
  /** Per-stream sum: Σ of each stream's own rate over its own time (the PetaBumps "Total Throughput"). */
  streamSumBitsPerSecond: number | null;
  completions: number;
}

export interface PeerInfo {
  hostname: string;
  address: string;
  software: string;
}

export interface WindowInfo {
  requestedBytes: number | null;
  /** Whether the requested window was applied before the handshake. */
  applied: boolean;
  /** What the user sees instead of a number when not applied, and why. */
  note: string;
}

export interface LonghaulResult {
  schema: typeof RESULT_SCHEMA;
  id: string;
  software: string;
  /** ISO 8601, UTC, wall clock at the start and end (informational; durations use monotonic clocks). */
  startedAt: string;
  endedAt: string;
  /** Which side wrote this document. */
  writtenBy: Side;
  controller: PeerInfo;
  responder: PeerInfo;
  params: ResultParams;
  window: WindowInfo;
  streams: StreamResult[];
  intervals: IntervalResult[];
  total: TotalResult;
  /** Per direction when bidir (controller→responder, responder→controller); otherwise the one direction. */
  directions: Partial<Record<'controllerToResponder' | 'responderToController', TotalResult>>;
  partial: boolean;
  partialReason: string | null;
  errors: ErrorInfo[];
  /** The emulated link the run went through (`longhaul loopback --link …`); absent for direct runs. See docs/proxy.md. */
  link?: LinkInfo;
}

/** One stage of an emulated link, as configured: `{ type: 'delay', delayMs: 650, … }`. */
export interface LinkStageInfo {
  type: string;
  [field: string]: unknown;
}

/** The link settings a run's proxy started with (all units in the names). */
export interface LinkSettingsInfo {
  /** One-way delay each direction, ms (round trip = 2 ×). */
  delayMs: number;
  jitterMs: number;
  /** Rate each way, bit/s; null = not limited. */
  rateBitsPerSec: number | null;
  /** Emulated TCP window (bytes in flight); null = not emulated. */
  windowBytes: number | null;
  slowstart: boolean;
  /** Modelled loss per segment, 0-0.5 (a stall of one RTT and a halving, not a dropped packet). */
  lossRatio: number;
  mssBytes: number;
}

/** The link-emulator proxy's part of a result (written by the loopback command). */
export interface LinkInfo {
  emulator: 'longhaul-proxy';
  /** The preset the settings came from (then possibly edited), or null. */
  preset: string | null;
  /** Settings in force at the start; null when a raw stage chain was given. */
  settings: LinkSettingsInfo | null;
  /** Stage chains per direction: up = controller → responder, down = responder → controller. */
  chains: { up: LinkStageInfo[]; down: LinkStageInfo[] };
  /** min(rate, window / RTT) for one stream, bit/s; null when nothing in the settings limits it. */
  modelCeilingBitsPerSec: number | null;
  /** Every bypass switch in order; `t` is seconds since the run's start (controller clock). */
  bypassToggles: { t: number; bypass: boolean }[];
  /** What a user-space relay cannot emulate, said plainly. */
  note: string;
}
