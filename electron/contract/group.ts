/**
 * `longhaul.group/1`: the document of a multi-peer run — one controller, several
 * paired responders, started together on one clock (docs/multi-peer.md). Each
 * peer's own `longhaul.result/1` is embedded whole, so every per-run report and
 * diagnosis still applies per peer; the group adds the aggregate.
 * Pure types (no Node imports) so the renderer can share them.
 */
import type { Direction, ErrorInfo, LonghaulResult, PeerInfo, ResultParams } from './result.js';

export const GROUP_SCHEMA = 'longhaul.group/1' as const;

/** What this PC does with a peer's bytes: `sender` (dual transmit), `receiver` (dual receive), `both` (bidir). */
type GroupRole = 'sender' | 'receiver' | 'both';

/** How every report and the app name a role: short (titles) and what it means. */
export const GROUP_ROLE_TEXT: Record<GroupRole, { short: string; long: string }> = {
  sender: { short: 'dual transmit', long: 'dual transmit: this PC sends to every peer' },
  receiver: { short: 'dual receive', long: 'dual receive: every peer sends to this PC' },
  both: { short: 'both ways', long: 'both ways with every peer' },
};

/** This PC's role for a direction of the run. */
export function groupRoleOf(direction: Direction): GroupRole {
  return direction === 'forward' ? 'sender' : direction === 'reverse' ? 'receiver' : 'both';
}

export interface GroupPeer {
  /** 0-based position in the command line / the app's selection. */
  index: number;
  /** The address as given (`host:port`): the peer's name in every report (host names may repeat). */
  address: string;
  /** The peer's own host name and software, from its hello ("unknown" if it never answered). */
  hostname: string;
  software: string;
  /** This PC's role towards this peer. */
  role: GroupRole;
  /**
   * This peer's start minus the group's earliest start, seconds, on this PC's monotonic clock
   * (null: this peer never started). Its result's `t` values are shifted by this to lie on the group clock.
   */
  startOffsetSeconds: number | null;
  /** The peer's ordinary result (partial when it vanished or failed). */
  result: LonghaulResult;
}

/** `peer 2 (10.0.0.7:5211)`: how every report and the app name a peer (1-based, as the user counts). */
export function peerLabel(p: Pick<GroupPeer, 'index' | 'address'>): string {
  return `peer ${p.index + 1} (${p.address})`;
}

/** Group totals under the named conventions (received bytes; rates in bit/s). */
export interface GroupTotal {
  bytes: number;
  sentBytes: number;
  /** Group clock: first byte of any peer's first stream to last byte of any peer's last stream, seconds. */
  seconds: number | null;
  /** Wall-clock aggregate: bytes × 8 / seconds. */
  bitsPerSecond: number | null;
  /**
   * Σ over peers of each peer's own wall-clock rate (the AAI "aggregate": each host's figure, added); a partial
   * peer adds its rate over the seconds measured (its result's partialRate). `peerSumOf` says what was added.
   */
  peerSumBitsPerSecond: number | null;
  /** Σ over every stream of every peer of its own rate (the PetaBumps "Total Throughput", across peers); a partial stream adds its partialRate. */
  streamSumBitsPerSecond: number | null;
  /** What the per-peer sum adds: how many peers' rates, how many of them partial (absent from groups saved before 2026-12-07). */
  peerSumOf?: SumOf;
  /** What the per-stream sum adds: how many streams' rates, how many of them partial (absent before 2026-12-07). */
  streamSumOf?: SumOf;
}

/** What a sum adds up: `added` rates, of which `partial` are over the seconds measured; the others (of the whole) were unknown. */
export interface SumOf {
  added: number;
  partial: number;
  /** How many there are in all (peers, or streams), rated or not. */
  of: number;
}

export interface GroupInterval {
  /** 1-based; the same index in every peer's result (all peers tick on one interval length from one start). */
  index: number;
  /** End of the interval on the group clock: the latest of the peers' `t` shifted by their start offsets. */
  t: number;
  seconds: number;
  /** Bytes each peer's receivers read in this interval, in `peers` order; null where that peer has no such interval. */
  peerReceivedBytes: (number | null)[];
  /** Their sum; null when any peer's figure is unknown (never a sum that silently counts a gap as 0). */
  receivedBytes: number | null;
}

/** One sentence over all peers, with the figures behind it. */
export interface GroupDiagnosis {
  sentence: string;
  /** Index of the peer with the lowest wall-clock rate (null: fewer than two rates known). */
  slowestPeer: number | null;
  /**
   * true: every peer was given a single-peer baseline and every peer fell below 0.8 of its own,
   * so this PC's shared side (NIC, CPU, bus) is suspected; false: at least one peer kept its baseline;
   * null: no baselines known (the group run alone cannot tell).
   */
  sharedSideSuspected: boolean | null;
  /** Index of the peer with the highest wall-clock rate (null: fewer than two rates known; absent before 2026-12-05). */
  fastestPeer?: number | null;
  /** Per peer, in `peers` order: its group rate over its rate run alone (null: no baseline or no rate). */
  aloneShares?: (number | null)[];
  /** Below this share of its rate alone a peer counts as held back by the group. */
  sharedSideShare?: number;
}

export interface LonghaulGroupResult {
  schema: typeof GROUP_SCHEMA;
  /** Random, 16 hex digits; each peer's run keeps its own id. */
  id: string;
  software: string;
  startedAt: string;
  endedAt: string;
  /** This PC. */
  controller: PeerInfo;
  /** The same for every peer. */
  params: ResultParams;
  /** Latest minus earliest start of the peers' runs on this PC's clock, seconds (null: not all started). */
  startSkewSeconds: number | null;
  peers: GroupPeer[];
  intervals: GroupInterval[];
  total: GroupTotal;
  /** Per direction for bidir; otherwise the one direction. */
  directions: Partial<Record<'controllerToResponder' | 'responderToController', GroupTotal>>;
  /** true when any peer's result is partial, or the group never started. */
  partial: boolean;
  /** Names the peers concerned, e.g. `peer 2 (10.0.0.7:5211) vanished: …`. */
  partialReason: string | null;
  /** Every peer's errors, tagged with the peer's index, then the group's own (peer null). */
  errors: (ErrorInfo & { peer: number | null })[];
  diagnosis: GroupDiagnosis;
}
