/**
 * When a small MSS is what held a direction back. A segment has a fixed cost
 * (40–60 B of TCP/IP headers, an ACK per one or two, a wake-up and a trip
 * through both stacks), so halving the MSS doubles the cost of every byte;
 * and slow start and congestion avoidance grow the window in segments, so a
 * small MSS also ramps slower. Seed 002 is this: a stack that never sent more
 * than 576 B made a 10 MB transfer take 33 s instead of 23 s.
 *
 * The rule names the MSS only when it is small against what the path allows
 * (the kernel's path MTU; where no OS reports one, the MSS is never blamed)
 * and when the receive window does not explain the rate: the verdict would be
 * "the application" (the per-segment cost is the suspect) or "congestion
 * control" (whose window grows by segments, so a small MSS slows it by the
 * same factor). Where the verdict is "the path", a small MSS is added as a
 * possibility to check, not made the verdict. The detail (contract/detail-text/mss.ts) says how to check.
 */
import { fig, type FindingFacts, type Figures } from '../contract/finding.js';
import type { StreamResult } from '../contract/result.js';

/** An MSS at most this share of what the path MTU allows counts as small. */
const SMALL_SHARE = 0.5;
/** TCP and IPv4 headers without options, bytes: the path MTU less these is the largest MSS it carries. */
const TCP_IPV4_HEADERS = 40;
/** A full-size segment on Ethernet (1,500 B MTU) and on most of the Internet, bytes. */
const ETHERNET_MSS_BYTES = 1460;

interface MssFigures {
  /** The senders' MSS (TCP_INFO snd_mss), bytes, largest over streams. */
  sendMssBytes: number;
  /** The path MTU the kernel held, bytes, smallest over streams. */
  pmtuBytes: number;
  /** The MSS asked for with --mss, bytes, or null. */
  requestedBytes: number | null;
}

/** The figures of one direction's sending ends, or null when an OS did not report them. */
export function mssFigures(streams: StreamResult[], requestedBytes: number | null): MssFigures | null {
  const mss = streams.map((s) => s.send?.socket?.sndMssBytes ?? null);
  const pmtu = streams.map((s) => s.send?.socket?.pmtuBytes ?? null);
  if (!mss.length || mss.some((x) => x === null || x <= 0) || pmtu.some((x) => x === null || x <= 0)) return null;
  return { sendMssBytes: Math.max(...(mss as number[])), pmtuBytes: Math.min(...(pmtu as number[])), requestedBytes };
}

/** The largest MSS the path MTU carries (IPv4 headers; IPv6's are 20 B more, which does not change "small"). */
export function pathMssBytes(pmtuBytes: number): number {
  return pmtuBytes - TCP_IPV4_HEADERS;
}

/**
 * Whether the senders' MSS is small: at most half of what the path carries, and at most half of
 * Ethernet's full-size segment. The second bound keeps a large path from calling ordinary segments
 * small: Linux's loopback sends 32,741 B of a 65,495 B path by default (it bounds the MSS to half
 * the largest window the peer offered), and a 1,460 B MSS on a jumbo-frame path is the norm, not a fault.
 */
export function mssIsSmall(f: MssFigures): boolean {
  return f.sendMssBytes <= SMALL_SHARE * Math.min(pathMssBytes(f.pmtuBytes), ETHERNET_MSS_BYTES);
}

/**
 * The verdicts a small MSS replaces: the application (the sender idled: per-segment work is the
 * suspect) and congestion control (its window grows by segments). Not "the path": with segmentation
 * offload a small MSS may cost the hosts little (docs/measurements.md#small-mss), so there the MSS is
 * named as a possibility, not the verdict.
 */
export function mssCanExplain(verdict: string): boolean {
  return verdict === 'application-limited' || verdict === 'congestion-limited';
}

/** The figures and facts a finding about small segments carries (mss-limited, or the small-segments note). */
export function mssFindingData(f: MssFigures, afterVerdict: string): { figures: Figures; facts: FindingFacts } {
  return {
    figures: { mss: fig(f.sendMssBytes, 'B', 'tcp_info'), pathMss: fig(pathMssBytes(f.pmtuBytes), 'B', 'tcp_info') },
    facts: { mssPath: { pmtuBytes: f.pmtuBytes, requestedBytes: f.requestedBytes, afterVerdict } },
  };
}
