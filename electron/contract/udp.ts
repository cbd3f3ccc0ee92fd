/**
 * What a UDP stream's receiver counts (issue 38), per interval and in total, under iperf3's
 * conventions so the two read the same: datagrams by sequence number, loss as the sequence
 * numbers that never arrived, jitter as RFC 3550 §6.4.1 computes it (the same estimator as
 * iperf3's), in milliseconds.
 */

/** -b for UDP when none is given: 1 Mbit/s per stream, as iperf3's. */
export const UDP_DEFAULT_BITS_PER_SEC = 1_000_000;
/** -l for UDP when none is given: a 1,500-byte IPv4 MTU less the IP and UDP headers less 12, as iperf3's 1460. */
export const UDP_DEFAULT_DATAGRAM_BYTES = 1460;
/** A datagram holds at least Longhaul's header (udp/datagram.ts LONGHAUL_HEADER_BYTES)... */
export const UDP_MIN_DATAGRAM_BYTES = 32;
/** ...and at most IPv4's largest UDP payload (65,535 − 20 − 8). */
export const UDP_MAX_DATAGRAM_BYTES = 65_507;
/** The largest datagram a 1,500-byte IPv4 MTU carries unfragmented (1,500 − 20 − 8): above it, the IP layer fragments. */
export const UDP_UNFRAGMENTED_BYTES = 1472;

/** What a UDP run cannot take yet, and why: the CLI, the Test step and the app's backend say the same. */
export const UDP_REFUSALS = {
  capacity: "the path's capacity is measured with TCP: measure it in a TCP run",
  mss: 'UDP has no MSS: the datagram size sets what each packet carries',
  congestion: 'UDP has no congestion control',
  zeroCopy: "-Z is TCP's sendfile(2) sender; datagrams are sent one by one",
} as const;

export interface UdpCounts {
  /** Datagrams that arrived and were counted (each sequence number once). */
  datagrams: number;
  /** Their payload bytes, UDP payload (the header Longhaul or iperf3 writes included, as iperf3 counts). */
  bytes: number;
  /** Sequence numbers expected but not (yet) seen: gaps below the highest one seen, less late arrivals. */
  lost: number;
  /** Datagrams that arrived after a higher sequence number (filling a gap counted as lost); null: the receiver did not say (an iperf3 peer's results carry no such count). */
  outOfOrder: number | null;
  /** Datagrams whose sequence number had already arrived; null: the receiver did not say (an iperf3 peer). */
  duplicates: number | null;
  /** RFC 3550 interarrival jitter at the end of the span, milliseconds; null before two datagrams arrived. */
  jitterMs: number | null;
}

/** Lost over expected (lost + arrived), as iperf3's "Lost/Total" percentage; null when nothing was expected. */
export function lossShare(c: Pick<UdpCounts, 'datagrams' | 'lost'>): number | null {
  const expected = c.datagrams + c.lost;
  return expected > 0 ? c.lost / expected : null;
}

/** One interval of a UDP stream, from the receiver's cumulative counts (their difference; jitter at the interval's end). */
export interface UdpInterval {
  datagrams: number;
  /**
   * Sequence numbers newly missing in this interval less earlier gaps filled late, never below 0
   * (a late arrival's gap was counted in an earlier interval; the stream's total is exact).
   */
  lost: number;
  outOfOrder: number | null;
  duplicates: number | null;
  jitterMs: number | null;
}

/** A UDP stream's totals: the receiver's counts with the tail counted from the sender's last number, and the sender's side. */
export interface UdpStreamResult extends UdpCounts {
  /** The sender's highest sequence number (null: its end report is missing, so the tail after the last arrival is not counted). */
  lastSeq: number | null;
  /** Datagrams the sender handed to its OS (null: unknown). */
  sentDatagrams: number | null;
  /** Bytes the sender's schedule asked for that its PC did not send in time (null: unknown): the PC, not the path, fell short. */
  shortBytes: number | null;
  /** Sends the sender's OS refused (null: unknown). */
  sendErrors: number | null;
  /**
   * Of `lost`, the datagrams the receiving PC's OS dropped at this stream's socket, its receive
   * buffer full (Linux counts them per socket); the rest were lost before they reached the PC.
   * null or absent: the OS does not say (Windows, macOS, an iperf3 peer's receiver, older results).
   */
  receiverDrops?: number | null;
}

/** A direction's UDP totals: the streams' counts summed, and the receiving PC's drops where every stream's are known. */
export interface UdpTotal extends UdpCounts {
  /** Σ of the streams' `receiverDrops`; null or absent when any stream's is unknown. */
  receiverDrops?: number | null;
}

/** The receiver's counts with the tail loss: numbers 1…lastSeq each arrived once or were lost. */
export function withTail(c: UdpCounts, lastSeq: number | null): UdpCounts {
  return lastSeq === null ? c : { ...c, lost: Math.max(c.lost, lastSeq - c.datagrams) };
}

/** The difference of two cumulative counts (an interval); `before` null: from the start. */
export function udpDelta(now: UdpCounts, before: UdpCounts | null): UdpInterval {
  return {
    datagrams: now.datagrams - (before?.datagrams ?? 0),
    lost: Math.max(0, now.lost - (before?.lost ?? 0)),
    outOfOrder: minus(now.outOfOrder, before ? before.outOfOrder : 0),
    duplicates: minus(now.duplicates, before ? before.duplicates : 0),
    jitterMs: now.jitterMs,
  };
}

/** Two neighbouring intervals as one (a long run's thinned middle): sums, and the later jitter. */
export function mergeUdpIntervals(a: UdpInterval | undefined, b: UdpInterval | undefined): UdpInterval | undefined {
  if (!a || !b) return b ?? a;
  return {
    datagrams: a.datagrams + b.datagrams,
    lost: a.lost + b.lost,
    outOfOrder: plus(a.outOfOrder, b.outOfOrder),
    duplicates: plus(a.duplicates, b.duplicates),
    jitterMs: b.jitterMs ?? a.jitterMs,
  };
}

/** Several streams as one (a direction's total): sums, and the mean jitter of the streams that have one, as iperf3's sum line. */
export function sumUdp(streams: readonly UdpCounts[]): UdpCounts | null {
  if (!streams.length) return null;
  const jitters = streams.map((s) => s.jitterMs).filter((j): j is number => j !== null);
  return {
    datagrams: streams.reduce((a, s) => a + s.datagrams, 0),
    bytes: streams.reduce((a, s) => a + s.bytes, 0),
    lost: streams.reduce((a, s) => a + s.lost, 0),
    outOfOrder: streams.reduce<number | null>((a, s) => plus(a, s.outOfOrder), 0),
    duplicates: streams.reduce<number | null>((a, s) => plus(a, s.duplicates), 0),
    jitterMs: jitters.length ? jitters.reduce((a, j) => a + j, 0) / jitters.length : null,
  };
}

/** A count that may be unknown (null), summed: unknown when either is. */
function plus(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

function minus(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a - b;
}
