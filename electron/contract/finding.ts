/**
 * A diagnosis as data: the verdict, the sub-case that decided it, and the figures it used, each with
 * its unit and where it came from. The analysis (electron/analysis/) produces these; words are
 * rendered from them at the edge (contract/answer-text.ts for the answer, the reports for detail),
 * and advice, the what-if and the tests key off `(verdict, case, figures)`, never off a sentence.
 */

/**
 * Every sub-case, `verdict/sub-case`: stable keys (saved results, tests and scripts match on them).
 * docs/results.md, "Diagnosis cases", says what each means.
 */
export const DIAGNOSIS_CASES = [
  'unknown/nothing-measured',
  'unknown/rtt-unknown',
  'unknown/emulator-bypassed',
  'window-limited/os-receive-buffer',
  'window-limited/requested',
  'window-limited/emulated-window',
  'send-buffer-limited/send-buffer',
  'receiver-limited/app-lagged',
  'receiver-limited/cpu-starved',
  'congestion-limited/slow-start',
  'congestion-limited/loss-rate-unknown',
  'congestion-limited/retransmits-unknown',
  'congestion-limited/emulated-slow-start',
  'congestion-limited/emulated-loss',
  'loss-limited/random-loss',
  'application-limited/sender-idle',
  'application-limited/paced',
  'cpu-limited/process',
  'cpu-limited/same-pc',
  'cpu-limited/unmeasured',
  'link-limited/rate-reached',
  'link-limited/standing-queue',
  'link-limited/queue-overflow',
  'link-limited/socket-full',
  'link-limited/bufferbloat',
  'emulator-limited/fell-behind',
  'mss-limited/small-segments',
  'application-limited/udp-carried',
  'loss-limited/udp-dropped',
  'cpu-limited/udp-sender-short',
  'receiver-limited/udp-socket-full',
] as const;

export type DiagnosisCase = (typeof DIAGNOSIS_CASES)[number];

/** What a figure counts in: bit/s, bytes, seconds, a share of 0–1, a count, CPU cores. */
type FigureUnit = 'bit/s' | 'B' | 's' | 'share' | 'count' | 'cores';

/**
 * Where a figure came from: `tcp_info` the sending kernel's readings; `measured` Longhaul's byte counts
 * and clocks; `cpu` the OS's CPU accounting; `model` computed from other figures (window ÷ RTT, Mathis);
 * `given` the user's statement (--path-rate); `emulated` the link emulator's settings or its own watch.
 */
type FigureSource = 'tcp_info' | 'measured' | 'cpu' | 'model' | 'given' | 'emulated';

export interface Figure {
  value: number;
  unit: FigureUnit;
  source: FigureSource;
}

/** The figures a finding may carry; each is present only where the rule used it. */
export type FigureName =
  | 'measured'
  | 'rtt'
  | 'minRtt'
  | 'queueing'
  | 'window'
  | 'windowRate'
  | 'windowAtMinRtt'
  | 'cwnd'
  | 'cwndRate'
  | 'linkRate'
  | 'receiveBuffer'
  | 'retransmits'
  | 'segmentsSent'
  | 'lossRatio'
  | 'lossModelRate'
  | 'rwndShare'
  | 'sndbufShare'
  | 'senderIdleShare'
  | 'cpuShareOfCore'
  | 'pcBusyShare'
  | 'cores'
  | 'readerWaitShare'
  | 'pacedRate'
  | 'mss'
  | 'pathMss'
  | 'modelRate'
  | 'rampSeconds'
  | 'transferSeconds'
  | 'streams'
  | 'statedLinkRate'
  | 'interruptShare'
  | 'stealShare'
  | 'controllerCpuShare'
  | 'responderCpuShare'
  | 'senderBusyShare'
  | 'appLimitedShare'
  /** UDP: RFC 3550 interarrival jitter, the streams' mean (s). */
  | 'jitter'
  /** UDP: the datagrams the senders numbered (arrived + lost), and the share of the asked rate the sending PC did not send in time. */
  | 'datagrams'
  | 'senderShortShare'
  /** UDP: of the lost datagrams, those the receiving PC's OS dropped at its own sockets (their buffers full); absent: the OS does not say. */
  | 'receiverDrops';

export type Figures = Partial<Record<FigureName, Figure>>;

/** Something true beside the verdict that the detail names (loss that did not set the rate, a stated rate the run beat…). */
export type FindingNote =
  | 'loss-present-bbr'
  | 'loss-present'
  | 'window-scale-zero'
  | 'stated-rate-contradicted'
  | 'small-segments'
  | 'rtt-varied'
  /** Through Longhaul's link emulator: the figures are the emulated link's, not the local hop's TCP_INFO. */
  | 'emulated-link';

/** How a link-limited finding was reached (kept where a deep queue makes the case bufferbloat). */
export type LinkVia = 'rate-reached' | 'window-queue' | 'cwnd-queue' | 'cwnd-overflow' | 'socket-full';

/** A sign that the link emulator on this PC fell behind, with its share of the time (or bytes) it carried. */
export type EmulatorSign =
  | { kind: 'stalled'; share: number }
  | { kind: 'behind'; share: number }
  | { kind: 'cpu'; share: number; cores: number | null }
  | { kind: 'late'; share: number; lateMs: number; maxLateMs: number }
  /** A UDP run: the emulator lost `datagrams` itself (its sockets' receive buffers full), `share` of all the datagrams lost. */
  | { kind: 'dropped'; datagrams: number; share: number };

/**
 * What a finding's detail needs beside its figures: which rule branch decided, and structure no single
 * figure holds (threads, signs, the bypass's toggles). Data, not words: the detail's words are rendered
 * from the finding by contract/detail-text/.
 */
export interface FindingFacts {
  /** The side that sent this direction's data, where known. */
  senderSide?: 'controller' | 'responder';
  linkVia?: LinkVia;
  /** Both ends on one PC or one LAN (minimum RTT under 1 ms): an RTT above the minimum is not a link's queue. */
  localPath?: boolean;
  /** Why the RTT is unknown, as the inputs said it. */
  missingReason?: string;
  /** The retransmit count was estimated from bytes retransmitted ÷ MSS (Windows). */
  retransEstimated?: boolean;
  /** The sender's congestion control, as its OS named it. */
  congestionControl?: string;
  /** The kernel counted less window-limited time than the rule's share: a paced sender is rarely blocked by its window. */
  rarelyBlocked?: boolean;
  /** cpu-limited/process: the busiest data thread (kind and streams), or null: the process as a whole. */
  busiest?: { kind: string; streams: number[] } | null;
  /** cpu-limited/same-pc: the cores were busy less than the rule's share (the threads also waited on each other). */
  notAllBusy?: boolean;
  /** The data threads' waits for a core, as shares of the transfer. */
  threadWaits?: { kind: string; streams: number[]; share: number }[];
  /** A fast local run whose CPU use is unknown: not measured at all, or both ends on this PC without its cores' busy share. */
  cpuUnknown?: 'not-measured' | 'pc-unmeasured';
  /** receiver-limited/cpu-starved: the starved reader's streams. */
  readerStreams?: number[];
  /** application-limited/paced: the rate asked per stream and how the sender was paced. */
  pacing?: {
    perStreamBitsPerSecond: number;
    mechanism: string | null;
    /** The run carried more than the pace while the kernel held the cap: its first burst (the initial window) goes out unpaced. */
    firstBurst?: boolean;
  };
  /** unknown/emulator-bypassed: when the bypass was switched, seconds into the run. */
  bypass?: { bypass: boolean; t: number }[];
  /** emulator-limited/fell-behind: the signs, and how the emulator moved the bytes. */
  emulator?: { signs: EmulatorSign[]; relay: 'native' | 'js'; relayReason: string | null };
  /** congestion-limited/emulated-slow-start: the ramp the emulated link's slow start needs. */
  ramp?: {
    initialSegments: number;
    mssBytes: number;
    roundTrips: number;
    targetBytes: number;
    toBdp: boolean;
    flowedSeconds: number;
    ceilingBitsPerSecond: number;
    runSeconds: number;
  };
  /**
   * congestion-limited/emulated-loss: the modelled loss, Reno's average window under it, what the proxy counted, and
   * where the run fell against that average (a short run's few losses fall as they fall).
   */
  emulatedLoss?: {
    lossRatio: number;
    mssBytes: number;
    windowBytes: number;
    counts: { segments: number; losses: number; halvings: number } | null;
    band: 'above' | 'below' | 'within';
  };
  /** Small segments (mss-limited, or the small-segments note): the path MTU and the MSS asked with --mss (null: none). */
  mssPath?: { pmtuBytes: number; requestedBytes: number | null; afterVerdict: string };
}

/** A figure in one call: `fig(12e6, 'bit/s', 'measured')`. */
export function fig(value: number, unit: FigureUnit, source: FigureSource): Figure {
  return { value, unit, source };
}
