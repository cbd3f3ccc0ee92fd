/**
 * The aggregate of a multi-peer run, from the peers' own results: pure
 * arithmetic, no sockets. Times are put on one clock (the group's) by each
 * peer's start offset; intervals are aligned by index (every peer ticks on the
 * same interval length from a start within milliseconds of the others).
 */
import type { GroupDiagnosis, GroupInterval, GroupPeer, GroupTotal, LonghaulGroupResult, SumOf } from '../../contract/group.js';
import { GROUP_SCHEMA, peerLabel } from '../../contract/group.js';
import type { ErrorInfo, PartialRate, PeerInfo, ResultParams, Side, StreamResult } from '../../contract/result.js';
import { withGroupSentence } from '../../contract/group-text.js';
import { shownRate } from '../../contract/partial-text.js';

/** Below this share of its single-peer rate a peer counts as held back in the group. */
const SHARED_SIDE_SHARE = 0.8;

export interface GroupMeta {
  id: string;
  software: string;
  startedAt: Date;
  endedAt: Date;
  controller: PeerInfo;
  params: ResultParams;
  /** Why the group never started (a peer failed before the common start), or null. */
  startFailure: string | null;
  /** Errors of the group itself (not of a peer's run). */
  errors: ErrorInfo[];
  /** Each peer's wall-clock rate when run alone, bit/s, in `peers` order (null entries: not known). */
  baselineBitsPerSecond?: (number | null)[];
}

/** Build the group document. `peers[i].result` are the runs' own results, untouched. */
export function buildGroupResult(meta: GroupMeta, peers: GroupPeer[]): LonghaulGroupResult {
  const offsets = peers.map((p) => p.startOffsetSeconds);
  const started = offsets.filter((o): o is number => o !== null);
  const directions: LonghaulGroupResult['directions'] = {};
  for (const [key, sender] of [
    ['controllerToResponder', 'controller'],
    ['responderToController', 'responder'],
  ] as const) {
    if (peers.some((p) => p.result.streams.some((s) => s.sender === sender))) directions[key] = groupTotal(peers, sender);
  }
  const reasons = peers.filter((p) => p.result.partial).map((p) => `${peerLabel(p)}: ${p.result.partialReason ?? 'partial'}`);
  if (meta.startFailure) reasons.unshift(meta.startFailure);
  return {
    schema: GROUP_SCHEMA,
    id: meta.id,
    software: meta.software,
    startedAt: meta.startedAt.toISOString(),
    endedAt: meta.endedAt.toISOString(),
    controller: meta.controller,
    params: meta.params,
    startSkewSeconds: started.length === peers.length && started.length ? Math.max(...started) - Math.min(...started) : null,
    peers,
    intervals: groupIntervals(peers),
    total: groupTotal(peers, null),
    directions,
    partial: reasons.length > 0,
    partialReason: reasons.length ? reasons.join('; ') : null,
    errors: [...peers.flatMap((p) => p.result.errors.map((e) => ({ ...e, peer: p.index }))), ...meta.errors.map((e) => ({ ...e, peer: null }))],
    diagnosis: groupDiagnosis(peers, meta.baselineBitsPerSecond),
  };
}

/** Totals over the streams of every peer (of one sender, or all when `sender` is null). */
export function groupTotal(peers: GroupPeer[], sender: Side | null): GroupTotal {
  const per = peers.map((p) => ({ offset: p.startOffsetSeconds ?? 0, streams: p.result.streams.filter((s) => sender === null || s.sender === sender) }));
  const all = per.flatMap((x) => x.streams);
  const bytes = all.reduce((a, s) => a + s.bytes, 0);
  const firsts = per.flatMap((x) => x.streams.map((s) => shifted(s.receive?.firstT, x.offset))).filter(isNumber);
  const lasts = per.flatMap((x) => x.streams.map((s) => shifted(s.receive?.lastT, x.offset))).filter(isNumber);
  const seconds = firsts.length && lasts.length ? Math.max(...lasts) - Math.min(...firsts) : null;
  // Bytes whose last arrival is unknown (a partial peer's) are not covered by the group clock: no wall-clock rate then.
  const allTimed = all.every((s) => s.bytes === 0 || (isNumber(s.receive?.firstT) && isNumber(s.receive?.lastT)));
  // A partial peer (or stream) adds its rate over the seconds measured, as every report shows it, and is counted as such.
  const peerRates = peers.map((p, i) => {
    const partial = partialOf(p, sender);
    return partial ? { bitsPerSecond: partial.bitsPerSecond, partial: true } : { bitsPerSecond: wallClockRate(per[i]?.streams ?? []), partial: false };
  });
  const streamRates = all.map((s) =>
    s.partialRate ? { bitsPerSecond: s.partialRate.bitsPerSecond, partial: true } : { bitsPerSecond: s.bitsPerSecond, partial: false },
  );
  const peerSum = sumOf(peerRates.filter((_, i) => (per[i]?.streams.length ?? 0) > 0));
  const streamSum = sumOf(streamRates);
  return {
    bytes,
    sentBytes: all.reduce((a, s) => a + (s.send?.bytes ?? 0), 0),
    seconds,
    bitsPerSecond: seconds !== null && seconds > 0 && allTimed ? (bytes * 8) / seconds : null,
    peerSumBitsPerSecond: peerSum.bitsPerSecond,
    streamSumBitsPerSecond: streamSum.bitsPerSecond,
    peerSumOf: peerSum.of,
    streamSumOf: streamSum.of,
  };
}

/** A peer's partial rate for these streams' direction (all of them when `sender` is null), or null in a complete run. */
function partialOf(p: GroupPeer, sender: Side | null): PartialRate | null {
  const r = p.result;
  if (sender === null) return r.total.partialRate ?? null;
  return r.directions[sender === 'controller' ? 'controllerToResponder' : 'responderToController']?.partialRate ?? null;
}

/** Σ of the known rates (null: none known), and what it added. */
function sumOf(rates: { bitsPerSecond: number | null; partial: boolean }[]): { bitsPerSecond: number | null; of: SumOf } {
  const known = rates.filter((r): r is { bitsPerSecond: number; partial: boolean } => isNumber(r.bitsPerSecond));
  return {
    bitsPerSecond: known.length ? known.reduce((a, r) => a + r.bitsPerSecond, 0) : null,
    of: { added: known.length, partial: known.filter((r) => r.partial).length, of: rates.length },
  };
}

/** One peer's wall-clock rate over these streams (its own clock), or null. */
function wallClockRate(streams: StreamResult[]): number | null {
  const firsts = streams.map((s) => s.receive?.firstT).filter(isNumber);
  const lasts = streams.map((s) => s.receive?.lastT).filter(isNumber);
  if (!firsts.length || !lasts.length) return null;
  const seconds = Math.max(...lasts) - Math.min(...firsts);
  return seconds > 0 ? (streams.reduce((a, s) => a + s.bytes, 0) * 8) / seconds : null;
}

/**
 * Intervals aligned by index. A peer without an interval counts as unknown (null), except after
 * the end of a run that completed: its streams were over, so it moved 0 bytes there.
 */
export function groupIntervals(peers: GroupPeer[]): GroupInterval[] {
  const byIndex = peers.map((p) => new Map(p.result.intervals.map((iv) => [iv.index, iv])));
  const lastIndex = peers.map((p) => p.result.intervals.reduce((a, iv) => Math.max(a, iv.index), 0));
  const indices = [...new Set(byIndex.flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
  const out: GroupInterval[] = [];
  let prevT = 0;
  for (const index of indices) {
    const ts: number[] = [];
    const peerReceivedBytes = peers.map((p, i) => {
      const iv = byIndex[i]?.get(index);
      if (iv) {
        ts.push(iv.t + (p.startOffsetSeconds ?? 0));
        return iv.receivedBytes;
      }
      return !p.result.partial && index > (lastIndex[i] ?? Infinity) ? 0 : null;
    });
    const t = Math.max(prevT, ...ts);
    const known = peerReceivedBytes.every(isNumber);
    out.push({ index, t, seconds: t - prevT, peerReceivedBytes, receivedBytes: known ? peerReceivedBytes.reduce<number>((a, b) => a + (b ?? 0), 0) : null });
    prevT = t;
  }
  return out;
}

/** Which peer was the slower one, and whether this PC's shared side is suspected (only with baselines). */
export function groupDiagnosis(peers: GroupPeer[], baselines?: (number | null)[]): GroupDiagnosis {
  // Only peers that ran to the end are compared: a partial peer's rate is over the seconds it was measured,
  // so it stopped, it was not slower (contract/group-text.ts says which peers were left out).
  const rates = peers.map((p) => shownRate(p.result.total).bitsPerSecond);
  const known = peers.map((p, i) => ({ p, rate: rates[i] })).filter((x): x is { p: GroupPeer; rate: number } => !x.p.result.partial && isNumber(x.rate));
  const sorted = [...known].sort((a, b) => a.rate - b.rate);
  const compared = known.length >= 2;
  const aloneShares = peers.map((_, i) => {
    const base = baselines?.[i] ?? null;
    const rate = rates[i];
    return base !== null && base > 0 && isNumber(rate) ? rate / base : null;
  });
  const measured = peers.length >= 2 && aloneShares.every((s) => s !== null);
  const facts: Omit<GroupDiagnosis, 'sentence'> = {
    slowestPeer: compared ? (sorted[0]?.p.index ?? null) : null,
    fastestPeer: compared ? (sorted.at(-1)?.p.index ?? null) : null,
    sharedSideSuspected: measured ? aloneShares.every((s) => s !== null && s < SHARED_SIDE_SHARE) : null,
    aloneShares,
    sharedSideShare: SHARED_SIDE_SHARE,
  };
  return withGroupSentence(facts, peers);
}

function shifted(t: number | null | undefined, offset: number): number | null {
  return typeof t === 'number' ? t + offset : null;
}

function isNumber(v: number | null | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
