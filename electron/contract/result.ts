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

import type { CapacityInfo } from './capacity-info.js';
import type { UdpInterval, UdpStreamResult, UdpTotal } from './udp.js';
import type { DelayInfo } from './delay-info.js';
import type { Direction, Side } from './direction.js';
import type { DiagnosisCase, FindingFacts, FindingNote, Figures } from './finding.js';
import type { LimiterVerdict } from './limiter-verdict.js';
import type { Advice, PeerOs } from './advice.js';

import type { LinkInfo } from './link-info.js';
import type { CpuInfo } from './cpu-info.js';
import type { PacingInfo } from './pacing-info.js';
import type { TcpSample } from './tcp-reading.js';
import type { SendPath } from './send-path.js';

// The link emulator's part of a result has its own file; importers of result.js keep finding it here.
// So are the TCP_INFO readings and the CPU figures.
export type * from './tcp-reading.js';
export type * from './cpu-info.js';
export type * from './pacing-info.js';

export const RESULT_SCHEMA = 'longhaul.result/1' as const;

/** Defined beside their words (direction.ts, limiter-verdict.ts); named here too, as every result reader knows them by this file. */
export type { Direction, Side, LimiterVerdict };

export interface ResultParams {
  streams: number;
  bufferBytes: number;
  windowBytes: number | null;
  bytes: number | null;
  seconds: number | null;
  direction: Direction;
  intervalSeconds: number;
  /** Requested MSS, bytes (TCP_MAXSEG before the handshake); null or absent: the OS's own. What the kernel used is per stream (`tcp.sndMssBytes`) and in `mss`. */
  mssBytes?: number | null;
  /** Asked pacing rate, payload bits/s PER STREAM (`--bitrate`); null or absent: unpaced. How each side applied it is in `pacing`. */
  bitrateBitsPerSec?: number | null;
  /** Asked congestion control (`-C, --congestion`, Linux TCP_CONGESTION on every stream end); null or absent: the system's. What each end used: `socket.congestionControl`. */
  congestionControl?: string | null;
  /** `-O, --omit`: seconds at the start left out of the totals and the verdict (their intervals are marked `omitted`); absent or 0: none. */
  omitSeconds?: number | null;
  /** `path-capacity`: Longhaul's own tuned run measuring the path after the user's (`--capacity`); absent for the user's runs. */
  purpose?: 'path-capacity';
  /** `-Z, --zerocopy`: senders hand the kernel their bytes with sendfile(2) where they can (contract/send-path.ts); absent: they copy. */
  zeroCopy?: true;
  /** 'udp' (`-u`): datagrams of `bufferBytes` at `bitrateBitsPerSec` per stream (docs/udp.md); absent: TCP. */
  protocol?: 'udp';
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
  /** Which byte loop moved this end's bytes: the addon's native thread or Node's socket (absent in older results). */
  io?: 'native' | 'node';
  /** A sending end: which call moved its bytes into the kernel (contract/send-path.ts); absent in older results and on receiving ends. */
  sendPath?: SendPath;
  /** This end's socket: requested and effective buffers, MSS, window scale (absent in older results). */
  socket?: SocketReport;
  /** This end's TCP_INFO at every interval tick (absent when it could not be read; see `unavailable`). */
  tcp?: TcpSample[];
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
  /** A partial run only: the rate over the seconds measured (PartialRate; docs/results.md, "Partial results"). */
  partialRate?: PartialRate;
  send: EndView | null;
  receive: EndView | null;
  /** UDP runs (docs/udp.md): datagrams, loss with the tail counted, jitter, and the sender's shortfall; absent for TCP. */
  udp?: UdpStreamResult;
  /**
   * The partner's view of this stream broke a bound this side's own measurement sets, and was rejected
   * (its view is null, its per-interval figures too): a receiver cannot read more than was sent. When
   * the rejected view is the receiver's, `bytes`, `seconds` and `bitsPerSecond` are this side's own
   * sending figures (what it handed to the kernel), the most the partner can have received.
   */
  peerClaim?: PeerClaim;
}

/**
 * A partial run's rate over the seconds measured, the convention "partial: over the N.N s measured": the
 * bytes received × 8 over `seconds`. `first-to-last-byte`: every receiver's end report came, and the
 * seconds are the wall clock's (`seconds` and `bitsPerSecond` beside it are the same figures); `start-to-last-sample`:
 * a receiver sent no end report, so its span runs from its clock's start (or its first byte, when earlier) to
 * the last sample it sent, whose count is its bytes. Present only when bytes arrived in a positive span.
 */
export interface PartialRate {
  seconds: number;
  bitsPerSecond: number;
  span: 'first-to-last-byte' | 'start-to-last-sample';
}

/**
 * A partner's figure rejected by a bound (StreamResult.peerClaim; docs/results.md, "A partner's claims"): a
 * byte count (`received <= sent`, TCP and UDP), or a UDP stream's datagram count against the sequence numbers
 * the sender used (`arrived <= sent`: datagrams that arrived in order; `arrived + lost <= sent`: those and the
 * ones counted lost).
 */
export type PeerClaim = PeerClaimWhere &
  (
    | { bound: 'received <= sent'; claimedBytes: number; ownBytes: number }
    | { bound: 'arrived <= sent' | 'arrived + lost <= sent'; claimedDatagrams: number; ownDatagrams: number }
  );

/** Whose claim it was and where it was made (PeerClaim). */
interface PeerClaimWhere {
  /** Whose figure: the partner's, as a side of the run. */
  side: Side;
  /** Which view it claimed. */
  view: 'send' | 'receive';
  /** Where the partner claimed it: its end-of-run report, or an interval's sample (the live figures) while its report kept within the bound. Absent in files written before 2026-12: the end report. */
  in?: 'end report' | 'interval sample';
}

export interface IntervalStream {
  id: number;
  /** Bytes the sender handed to the kernel in this interval (null if that side's sample is missing). */
  sentBytes: number | null;
  /** Bytes the receiver read in this interval (null if that side's sample is missing). */
  receivedBytes: number | null;
  receiveCompletions: number | null;
  /**
   * Segments the sender retransmitted in this interval (its cumulative count at this tick less at the
   * previous one; the first interval counts from the handshake). Null: unknown (a reading missing here or
   * at the previous tick, or the OS does not count); absent in older results and where the sender sent no readings.
   */
  retransSegments?: number | null;
  /** 'estimated': Windows counts retransmitted bytes, the segments are bytes ÷ MSS (retrans-text.ts says so). Absent: counted. */
  retransSource?: 'counted' | 'estimated';
  /** The sender's congestion window at the interval's end, bytes (Linux: segments × MSS; Windows and macOS report bytes). Null: unknown. */
  cwndBytes?: number | null;
  /** UDP runs: the receiver's datagrams, loss and jitter in this interval (contract/udp.ts); absent for TCP or when its sample is missing. */
  udp?: UdpInterval;
}

export interface IntervalResult {
  /** 1-based; interval i covers roughly ((i-1)·interval, i·interval]. The last may be shorter. */
  index: number;
  /**
   * End of the interval, seconds since start, on the receiving side's clock (the responder's
   * for forward runs, the controller's otherwise). Where that side's sample is missing, the
   * other side's time shifted by the offset measured between the two clocks in this run.
   */
  t: number;
  /** Length of the interval in seconds: t minus the previous interval's t; the first one from 0, or from its first byte when that came earlier (the receiver handled the start late). */
  seconds: number;
  controllerT: number | null;
  responderT: number | null;
  streams: IntervalStream[];
  /** Sums over streams, null when no stream has that view. */
  sentBytes: number | null;
  receivedBytes: number | null;
  /** Sample ticks merged into this interval (a thinned result: see `detail`); absent means 1. */
  ticks?: number;
  /** In the first `params.omitSeconds` (`-O, --omit`): shown, left out of the totals and the verdict. Absent: counted. */
  omitted?: boolean;
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
  /** A partial run only: the rate over the seconds measured (PartialRate; docs/results.md, "Partial results"). */
  partialRate?: PartialRate;
  completions: number;
  /** UDP runs: the streams' counts summed (loss with each stream's tail), jitter their mean as iperf3's sum line; absent for TCP. */
  udp?: UdpTotal;
}

export interface PeerInfo {
  hostname: string;
  address: string;
  software: string;
  /** The end's OS as it said in its hello (`os.platform()`, `os.release()`); absent from peers that do not send it. */
  os?: PeerOs;
  /** The partner's TCP settings as it read them itself (`net.ipv4.tcp_rmem` → `4096 131072 6291456`), sent with its results; absent when it did not. */
  settings?: Record<string, string>;
}

export interface WindowInfo {
  requestedBytes: number | null;
  /** Whether the requested window was applied before the handshake (on every stream end that reported). */
  applied: boolean;
  /** What the user sees instead of a number when not applied, and why. */
  note: string;
  /**
   * Smallest and largest effective SO_RCVBUF / SO_SNDBUF over the stream ends,
   * as the OS reports them (Linux: twice the request, capped by net.core.rmem_max / wmem_max).
   */
  effectiveRcvBufBytes?: { min: number; max: number } | null;
  effectiveSndBufBytes?: { min: number; max: number } | null;
  /**
   * The receive window the receivers really advertised, as their senders saw it (TCP_INFO
   * snd_wnd at each tick, smallest and largest, bytes); null or absent where not measured.
   */
  advertisedBytes?: { min: number; max: number } | null;
  /** Stream ends that reported their socket (absent in results before 2026-12-05, as the fields below). */
  reportedEnds?: number;
  /** Stream ends that could not take the request before the handshake, and the OS's reasons. */
  missedEnds?: number;
  missedReasons?: string[];
  /** The advertised-window clamp (TCP_WINDOW_CLAMP) every end held, bytes; null: none or not every end. */
  clampBytes?: { min: number; max: number } | null;
  /** Buffers set above net.core.rmem_max with SO_RCVBUFFORCE on at least one end. */
  buffersForced?: boolean;
  /** Every end reported through Linux's TCP_INFO (Linux doubles a requested buffer). */
  linuxEnds?: boolean;
  /** The senders talked to the delay proxy: `advertisedBytes` is the local hop's, not the emulated window. */
  viaProxy?: boolean;
}

/**
 * The MSS of the run: asked for (TCP_MAXSEG before the handshake on every stream end) or the OS's
 * own, and what the kernels used. Ranges are smallest and largest over stream ends, bytes; null where no OS said.
 */
export interface MssInfo {
  requestedBytes: number | null;
  /** True when every stream end's OS took the request. */
  applied: boolean;
  /** The line a person reads: requested, applied or refused (and by which side), used, path MTU. */
  note: string;
  /** The MSS the sending ends used (Linux: less the TCP options each segment carries, e.g. 12 B of timestamps). */
  sendMssBytes: { min: number; max: number } | null;
  /** The MSS the ends advertised in their SYN / SYN-ACK (Linux). */
  advertisedMssBytes: { min: number; max: number } | null;
  /** The path MTU the kernels held (Linux): recorded, never set by Longhaul. */
  pmtuBytes: { min: number; max: number } | null;
  /** Sides on which the OS refused the request (their `unavailable` entry `mss` has its words). */
  refusedBy: Side[];
  /** Stream ends that reported their socket, and how many of them refused (absent in results before 2026-12-05). */
  reportedEnds?: number;
  refusedEnds?: number;
}

/** A figure this run could not measure, on which side, and why. */
export interface UnavailableField {
  side: Side;
  /** Dotted name of the field, e.g. `socket.sndBufBytes`, `tcp.rttUs`, `tcp` (all of it). */
  field: string;
  reason: string;
}

/** One stream end's socket as set up for the run. `null` fields: the OS did not say (see `unavailable`). */
export interface SocketReport {
  /**
   * The window asked for, bytes; null = OS default (autotuning). On Linux it is the advertised
   * window (TCP_WINDOW_CLAMP, see `windowClampBytes`) with buffers of twice it; elsewhere SO_SNDBUF and SO_RCVBUF.
   */
  requestedBytes: number | null;
  /** TCP_WINDOW_CLAMP set before the handshake, bytes: the most this end advertises. Absent or null: not clamped (not Linux, or older versions). */
  windowClampBytes?: number | null;
  /** The buffers were set above net.core.rmem_max / wmem_max (SO_*BUFFORCE, needs CAP_NET_ADMIN). */
  buffersForced?: boolean;
  /** True when the request was applied before the TCP handshake (so the window scale could follow it). */
  appliedBeforeHandshake: boolean;
  /** Effective sizes the OS reports (getsockopt), bytes; Linux reports twice the request. */
  sndBufBytes: number | null;
  rcvBufBytes: number | null;
  /** Whether the sizes are pinned (autotuning off), where the OS says. */
  sndBufLocked: boolean | null;
  rcvBufLocked: boolean | null;
  /** Send / receive maximum segment size, bytes (Linux: less the TCP options each segment carries, e.g. 12 B of timestamps). */
  sndMssBytes: number | null;
  rcvMssBytes: number | null;
  /** The MSS this end advertised in its SYN / SYN-ACK, bytes; absent or null where the OS does not say (Linux tcpi_advmss). */
  advMssBytes?: number | null;
  /** The path MTU the kernel holds for this connection, bytes (Linux tcpi_pmtu); null where the OS does not say. */
  pmtuBytes: number | null;
  /** The MSS asked for on this end (TCP_MAXSEG before the handshake), bytes; absent when none was. */
  mssRequestedBytes?: number | null;
  /** Whether this end's OS took the MSS request (when refused, `unavailable` has field `mss` with the OS's words). */
  mssApplied?: boolean;
  /** The congestion control this socket used (Linux TCP_CONGESTION, e.g. 'cubic', 'bbr'); null where the OS does not say per socket (Windows). Absent in older results. */
  congestionControl?: string | null;
  /** Window scale shifts negotiated in the SYN (0 when not negotiated). */
  sndWscale: number | null;
  rcvWscale: number | null;
  wscaleNegotiated: boolean | null;
  /** Which OS interface the TCP figures come from (`linux-tcp_info`, …), null when none. */
  tcpInfoSource: string | null;
  /** Fields of this report the OS could not provide, with the reason. */
  unavailable: { field: string; reason: string }[];
}

/**
 * How much per-interval detail the result keeps (docs/results.md, "Detail"): the first ticks and the last
 * ones as sampled, the middle of a long run merged into groups of `ticksPerInterval` ticks.
 */
export interface DetailInfo {
  /** Whether any intervals or TCP_INFO readings were merged. */
  thinned: boolean;
  /** Intervals 1..this are as sampled. */
  fullThroughIndex: number;
  /** Ticks per merged interval between the head and the recent ones (1: none merged). */
  ticksPerInterval: number;
  /** From this tick on, intervals are as sampled again (null when nothing was merged). */
  recentFromIndex: number | null;
  /** The same in words. */
  note: string;
}

export interface Diagnosis {
  direction: 'controllerToResponder' | 'responderToController';
  verdict: LimiterVerdict;
  /** The sub-case that decided the verdict (contract/finding.ts); absent only in results saved before cases existed. */
  case?: DiagnosisCase;
  /** The figures the rule used, each with its unit and source; absent only in older results. */
  figures?: Figures;
  /** The end the finding is about where it names one (the busy CPU's side, the lagging receiver's); absent when none. */
  side?: Side;
  /** What is true beside the verdict and the detail names (loss present, a stated rate the run beat…); absent when none. */
  notes?: FindingNote[];
  /** What the detail needs beside the figures (which branch decided, threads, signs); absent in older results. */
  facts?: FindingFacts;
  /** The detail in words (rendered from the finding for the explanation and older readers). */
  sentence: string;
  /** The numbers the sentence quotes (null = not measured). */
  numbers: {
    measuredBitsPerSecond: number | null;
    rttSeconds: number | null;
    /** The lowest RTT the kernel saw (the path without queues or delayed ACKs), s: what a window must cover. Absent in older results, null when unknown. */
    minRttSeconds?: number | null;
    /** Smoothed RTT under load less the minimum RTT, s: the queueing the path added (absent in older results, null when unknown). */
    queueingSeconds?: number | null;
    windowBytes: number | null;
    windowBitsPerSecond: number | null;
    cwndBytes: number | null;
    cwndBitsPerSecond: number | null;
    retransSegments: number | null;
    /** Retransmitted ÷ sent segments (absent in older results, null when unknown or none). */
    lossRatio?: number | null;
    rwndLimitedShare: number | null;
    sndbufLimitedShare: number | null;
    windowScale: number | null;
    /** The rate `--bitrate` held this direction to (per stream × streams), bit/s, when the verdict is that pacing; absent otherwise. */
    pacedBitsPerSecond?: number | null;
  };
}

/** A diagnosis as the analysis produces it today: the case and figures always there. */
export type DiagnosisFinding = Diagnosis & { case: DiagnosisCase; figures: Figures };

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
  /** The MSS asked for and used (absent in results older than it). */
  mss?: MssInfo;
  streams: StreamResult[];
  intervals: IntervalResult[];
  total: TotalResult;
  /** Per direction when bidir (controller→responder, responder→controller); otherwise the one direction. */
  directions: Partial<Record<'controllerToResponder' | 'responderToController', TotalResult>>;
  partial: boolean;
  partialReason: string | null;
  errors: ErrorInfo[];
  /** Figures this run could not measure and why (empty or absent when all were measured). */
  unavailable?: UnavailableField[];
  /** Why the throughput is what it is, per direction (absent in older results). */
  diagnosis?: Diagnosis[];
  /** The emulated link the run went through (`longhaul loopback --link …`); absent for direct runs. See docs/proxy.md. */
  link?: LinkInfo;
  /**
   * The path's wire rate, bit/s: as the user stated it (`--path-rate`, source `given`) or as Longhaul measured it
   * (`--capacity`, source `measured`: `capacity`'s wire rate); what the verdict, advice and what-if fill. Absent when neither.
   */
  pathRate?: { bitsPerSecond: number; source: 'given' | 'measured' };
  /** The path's capacity, measured by Longhaul's own tuned run after this one (`--capacity`; contract/capacity.ts). Absent when not asked. */
  capacity?: CapacityInfo;
  /** A scheduled run (`longhaul schedule`, docs/schedules.md): the schedule's name and the slot it ran in. Absent otherwise. */
  schedule?: { name: string; slot: number };
  /**
   * The controller ran against the app's own responder on this PC ("Both on this PC"): repeating the run needs a new
   * one, on another port. Absent: a partner elsewhere (its address is `responder.address`, its control port), or a
   * result older than this field.
   */
  ownResponder?: true;
  /** The path's length as the user stated it (`--distance-km`, the Test screen's Distance), metres: the bit·m/s metric. Absent when not given. */
  distance?: { meters: number; source: 'given' };
  /** What to change, on which PC, for the limit this run met (absent in older results; empty when nothing to change). */
  advice?: Advice[];
  /** How much per-interval detail is kept (absent in older results: all of it). */
  detail?: DetailInfo;
  /** CPU per side over the transfer (absent in older results). */
  cpu?: CpuInfo;
  /** How the senders were paced (`--bitrate`); absent when the run was unpaced. */
  pacing?: PacingInfo;
  /** The RTT idle and under load, and the queueing the path added (contract/delay-info.ts); absent in older results. */
  delay?: DelayInfo;
}
