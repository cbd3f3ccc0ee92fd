/**
 * Between Longhaul's stream ends and iperf3's results documents, both ways. Shared
 * by the iperf3 client and server: the peer's per-stream totals become its side's
 * `StreamEnd`s in the recorder, and this side's ends become the document we send.
 */
import type { CpuUse, TcpSample } from '../../contract/result.js';
import type { LocalStreamResult, PeerResults } from '../../protocol/iperf3/results-document.js';
import { iperfStreamId } from '../../protocol/iperf3/states.js';
import type { StreamEnd } from '../../protocol/messages.js';
import type { PlannedStream, StreamSender } from '../session/params.js';

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
 * is 0 on its ends (docs/iperf3.md). Its first/last byte times are seconds since its own
 * stream start; a stream it did not report is missing here, so the recorder marks it.
 */
export function peerEnds(plan: PlannedStream[], peerSide: StreamSender, results: PeerResults): StreamEnd[] {
  const ends: StreamEnd[] = [];
  for (const r of results.streams) {
    const p = plan[r.index];
    if (!p) continue;
    ends.push({
      id: p.id,
      role: p.sender === peerSide ? 'send' : 'receive',
      bytes: r.bytes,
      completions: 0,
      firstT: r.startSeconds,
      lastT: r.endSeconds,
      error: null,
    });
  }
  return ends.sort((a, b) => a.id - b.id);
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
    };
  });
}
