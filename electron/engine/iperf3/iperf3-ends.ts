/**
 * Between Longhaul's stream ends and iperf3's results documents, both ways. Shared
 * by the iperf3 client and server: the peer's per-stream totals become its side's
 * `StreamEnd`s in the recorder, and this side's ends become the document we send.
 */
import type { CpuUse, TcpSample } from '../../contract/result.js';
import type { LocalStreamResult, PeerResults } from '../../protocol/iperf3/results-document.js';
import { iperfStreamId } from '../../protocol/iperf3/states.js';
import type { StreamEnd } from '../../protocol/messages.js';
import type { PlannedStream, StreamSender } from '../../contract/stream-plan.js';

/**
 * The peer's CPU as its results state it (iperf3's percent of one core, over `wallSeconds`: the
 * test as this side timed it). iperf3 does not say how many cores it has nor what its threads
 * used: `coresKnown: false`, no threads. Null when it sent all zeros (it measured nothing: older
 * Longhaul, or an iperf3 that could not read its CPU).
 */
export function peerCpu(results: PeerResults, wallSeconds: number): CpuUse | null {
  const { totalPercent, userPercent, systemPercent } = results.cpu;
  const ok = (x: number): boolean => Number.isFinite(x) && x >= 0 && x <= 1e6;
  if (!ok(totalPercent) || !ok(userPercent) || !ok(systemPercent) || totalPercent + userPercent + systemPercent === 0) return null;
  const share = totalPercent / 100;
  return {
    userSeconds: (userPercent / 100) * wallSeconds,
    systemSeconds: (systemPercent / 100) * wallSeconds,
    wallSeconds,
    cores: 1,
    coresKnown: false,
    shareOfOneCore: share,
    shareOfPc: share,
    threads: null,
  };
}

/**
 * The peer's streams as `StreamEnd`s. iperf3 counts no read or write calls: `completions`
 * is 0 on its TCP ends (docs/iperf3.md), and its datagrams on UDP ends. Its first/last byte times are seconds since its own
 * stream start; a stream it did not report is missing here, so the recorder marks it.
 */
export function peerEnds(plan: PlannedStream[], peerSide: StreamSender, results: PeerResults, udp = false): StreamEnd[] {
  const ends: StreamEnd[] = [];
  for (const r of results.streams) {
    const p = plan[r.index];
    if (!p) continue;
    const role = p.sender === peerSide ? 'send' : 'receive';
    const u = udp ? peerUdp(role, r) : {};
    ends.push({
      id: p.id,
      role,
      bytes: r.bytes,
      // A UDP end's completions are its datagrams, which iperf3 does count (sent, or arrived).
      completions: u.udp ? (u.udp.lastSeq ?? u.udp.counts?.datagrams ?? 0) : 0,
      firstT: r.startSeconds,
      lastT: r.endSeconds,
      error: null,
      ...u,
    });
  }
  return ends.sort((a, b) => a.id - b.id);
}

/**
 * A UDP stream's figures as an iperf3 peer stated them: a sender's datagrams sent is its last
 * number; a receiver's arrived datagrams are the highest number it saw less the ones it counted
 * lost. iperf3 sends no out-of-order or duplicate counts: unknown (null), not 0.
 */
function peerUdp(role: 'send' | 'receive', r: PeerResults['streams'][number]): Pick<StreamEnd, 'udp'> {
  const { packets, errors, jitterSeconds } = r.udp;
  if (packets === null) return {};
  if (role === 'send') return { udp: { lastSeq: packets } };
  if (errors === null) return {};
  const counts = {
    datagrams: Math.max(0, packets - errors),
    bytes: r.bytes,
    lost: Math.min(errors, packets),
    outOfOrder: null,
    duplicates: null,
    jitterMs: jitterSeconds === null ? null : jitterSeconds * 1000,
  };
  return { udp: { counts } };
}

/** This end's UDP figures in iperf3's fields (see LocalStreamResult.udp), or none for a TCP end. */
function localUdp(e: StreamEnd | undefined): Pick<LocalStreamResult, 'udp'> {
  if (e?.role === 'send' && e.udp?.lastSeq !== undefined) return { udp: { jitterSeconds: 0, errors: 0, packets: e.udp.lastSeq } };
  const c = e?.role === 'receive' ? e.udp?.counts : undefined;
  if (!c) return {};
  return { udp: { jitterSeconds: (c.jitterMs ?? 0) / 1000, errors: c.lost, packets: c.datagrams + c.lost } };
}

/** This side's ends as iperf3's per-stream results (retransmissions from the last TCP_INFO reading of a sending end, and whether they are an estimate). */
export function localResults(
  plan: PlannedStream[],
  ends: StreamEnd[],
  tcp: [number, TcpSample][] | undefined,
  omitted: { t: number; bytes: ReadonlyMap<number, number> } | null = null,
): LocalStreamResult[] {
  const lastTcp = new Map(tcp ?? []);
  return plan.map((p, index) => {
    const e = ends.find((x) => x.id === p.id);
    const last = e?.role === 'send' ? lastTcp.get(p.id) : undefined;
    const retrans = last?.totalRetransSegments ?? null;
    // A client's -O: iperf3 reports the seconds after them only, so this end does too.
    const start = Math.max(e?.firstT ?? 0, omitted?.t ?? -Infinity);
    return {
      iperfId: iperfStreamId(index),
      bytes: Math.max(0, (e?.bytes ?? 0) - (omitted?.bytes.get(p.id) ?? 0)),
      retransmits: retrans,
      ...(retrans !== null && last?.retransSource === 'estimated' ? { retransEstimated: true } : {}),
      startSeconds: 0,
      endSeconds: Math.max(0, (e?.lastT ?? start) - (omitted ? start : Math.min(0, start))),
      ...localUdp(e),
    };
  });
}
