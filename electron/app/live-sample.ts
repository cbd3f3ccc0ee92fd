/**
 * Engine samples → the contract's `LiveSample`: cumulative counters as they
 * are, and of the TCP_INFO readings only the sending ends' RTT, cwnd, peer
 * window and retransmissions (what the Run screen's second panel draws; an estimated count
 * keeps its label),
 * so 128 streams at 10 samples/s stay a few kB per sample on the socket.
 */
import type { ControlRttNow, LiveSample, LiveTcp } from '../contract/api.js';
import type { Side, TcpSample } from '../contract/result.js';
import type { SideSample } from '../engine/data-plane/data-plane.js';
import { planStreams } from '../contract/stream-plan.js';
import { type RunParams } from '../protocol/run-params.js';

/** Stream id → the side that sends it, from the run's plan. */
export function sendersOf(params: RunParams): Map<number, Side> {
  return new Map(planStreams(params).map((s) => [s.id, s.sender]));
}

/** An estimated retransmit count (Windows: bytes ÷ MSS) goes with its label and the bytes behind it, so the panel says so. */
function liveTcp(id: number, t: TcpSample): LiveTcp {
  const out: LiveTcp = { id, rttUs: t.rttUs, sndCwndBytes: t.sndCwndBytes, sndWndBytes: t.sndWndBytes, totalRetransSegments: t.totalRetransSegments };
  // The path idle, for the panel's queueing figure (contract/delay-info.ts queueingUs).
  if (t.minRttUs !== undefined && t.minRttUs !== null) out.minRttUs = t.minRttUs;
  if (t.retransSource === 'estimated' && t.totalRetransSegments !== null) {
    out.retransSource = 'estimated';
    out.bytesRetrans = t.bytesRetrans ?? null;
  }
  return out;
}

/**
 * The contract sample for one side's engine sample. `senders` null (the
 * responder host, which does not see the plan) leaves the TCP readings out.
 */
export function toLiveSample(
  runId: string,
  side: Side,
  s: Pick<SideSample, 'index' | 't' | 'final' | 'streams' | 'tcp' | 'udp' | 'from'>,
  senders: Map<number, Side> | null,
): LiveSample {
  const out: LiveSample = { runId, side, index: s.index, t: s.t, final: s.final, streams: s.streams, ...(s.from !== undefined ? { from: s.from } : {}) };
  // A UDP receiver's counts: what the Run chart's loss line needs, and no more (jitter and order come with the result).
  if (s.udp?.length) out.udp = s.udp.map(([id, c]) => [id, c.datagrams, c.lost]);
  if (!senders) return out;
  const tcp = (s.tcp ?? []).filter(([id]) => senders.get(id) === side).map(([id, t]) => liveTcp(id, t));
  if (tcp.length) out.tcp = tcp;
  return out;
}

/**
 * The control channel's latest round trips for the Run screen, fed by the run's `controlRtt` events; `attach` adds
 * them to the controller's samples once a ping was answered.
 */
export class ControlRttLatest {
  private now: ControlRttNow | null = null;

  add(r: { phase: 'idle' | 'loaded'; ms: number }): void {
    const was = this.now ?? { idleMs: null, nowMs: null };
    this.now = r.phase === 'idle' ? { ...was, idleMs: r.ms } : { ...was, nowMs: r.ms };
  }

  attach(s: LiveSample): LiveSample {
    return this.now && s.side === 'controller' ? { ...s, control: { ...this.now } } : s;
  }
}
