/**
 * The Run screen's second panel: what the sending kernels say, per tick —
 * the median smoothed RTT over the sending streams (ms) and the sum of their
 * congestion windows and of the peer's advertised windows (bytes), and the
 * retransmitted segments, estimated where the OS counts only bytes (Windows). Readings
 * come only from sides with the native addon; none at all means "unknown",
 * never zero. Series are bounded like the throughput chart's.
 */
import type { LiveSample, LiveTcp } from '../../../electron/contract/api.js';
import type { Side } from '../../../electron/contract/result.js';
import { TickPoints, type Point } from './live-series.js';
import { queueingUs } from '../../../electron/contract/delay-info.js';

export class TcpSeries {
  readonly rttMs: Point[] = [];
  readonly cwndBytes: Point[] = [];
  /** Latest figures (null = not reported). */
  rttNowMs: number | null = null;
  /** The path idle (lowest min_rtt over the sending streams) and the queueing now (median over streams of smoothed less minimum), ms. */
  idleRttMs: number | null = null;
  queueingNowMs: number | null = null;
  cwndNowBytes: number | null = null;
  peerWindowNowBytes: number | null = null;
  retransSegments: number | null = null;
  /** True when any stream's count is an estimate (Windows: bytes retransmitted ÷ MSS): the sum is then one too. */
  retransEstimated = false;
  /** Bytes retransmitted behind an estimated sum (the estimating streams' bytes), or null when not known. */
  retransBytes: number | null = null;
  /** Streams in the latest reading. */
  streams = 0;
  readings = 0;
  /** The control channel's round trip (the controller's pings): the latest under load and before the data, ms; null: none yet. */
  readonly controlMs: Point[] = [];
  controlNowMs: number | null = null;
  controlIdleMs: number | null = null;

  /** Each side's latest readings (its sending streams): in a --bidir run both sides send, and the figures cover both. */
  private readonly bySide = new Map<Side, LiveTcp[]>();
  private readonly rttTicks: TickPoints;
  private readonly cwndTicks: TickPoints;
  private readonly controlTicks: TickPoints;

  constructor(maxPoints = 600) {
    this.rttTicks = new TickPoints(this.rttMs, maxPoints);
    this.cwndTicks = new TickPoints(this.cwndBytes, maxPoints);
    this.controlTicks = new TickPoints(this.controlMs, maxPoints);
  }

  /** Feed every sample: the control channel's round trip where it carries one, the TCP readings where it has them. */
  add(s: LiveSample): void {
    if (s.control) {
      this.controlIdleMs = s.control.idleMs;
      this.controlNowMs = s.control.nowMs;
      if (s.control.nowMs !== null) this.controlTicks.add(s.index, s.side, { x: s.t, y: s.control.nowMs });
    }
    if (!s.tcp || s.tcp.length === 0) return;
    this.bySide.set(s.side, s.tcp);
    const tcp = [...this.bySide.values()].flat();
    this.readings++;
    this.streams = tcp.length;
    this.rttNowMs = median(
      tcp
        .map((x) => x.rttUs)
        .filter(known)
        .map((us) => us / 1000),
    );
    const mins = tcp.map((x) => x.minRttUs).filter(known);
    this.idleRttMs = mins.length ? Math.min(...mins) / 1000 : null;
    const queues = tcp.map((x) => queueingUs(x.rttUs, x.minRttUs)).filter(known);
    this.queueingNowMs = queues.length ? median(queues.map((us) => us / 1000)) : null;
    this.cwndNowBytes = sum(tcp, 'sndCwndBytes');
    this.peerWindowNowBytes = sum(tcp, 'sndWndBytes');
    this.retransSegments = sum(tcp, 'totalRetransSegments');
    const estimating = tcp.filter((x) => x.retransSource === 'estimated' && x.totalRetransSegments !== null);
    this.retransEstimated = estimating.length > 0;
    // Bytes only when every estimating stream gave them, and no stream counted segments: a mixed sum has no single byte figure.
    const bytes = estimating.map((x) => x.bytesRetrans ?? null);
    const counted = tcp.some((x) => x.retransSource !== 'estimated' && x.totalRetransSegments !== null);
    this.retransBytes = this.retransEstimated && !counted && bytes.every(known) ? bytes.reduce((a, b) => a + b, 0) : null;
    if (this.rttNowMs !== null) this.rttTicks.add(s.index, s.side, { x: s.t, y: this.rttNowMs });
    if (this.cwndNowBytes !== null) this.cwndTicks.add(s.index, s.side, { x: s.t, y: this.cwndNowBytes });
  }
}

function known(v: number | null | undefined): v is number {
  return v !== null && Number.isFinite(v);
}

/** Sum of a field over the streams that report it; null when none does. */
function sum(tcp: LiveTcp[], field: 'sndCwndBytes' | 'sndWndBytes' | 'totalRetransSegments'): number | null {
  const vs = tcp.map((x) => x[field]).filter(known);
  return vs.length ? vs.reduce((a, b) => a + b, 0) : null;
}

export function median(vs: number[]): number | null {
  if (vs.length === 0) return null;
  const s = [...vs].sort((a, b) => a - b);
  const m = s.length >> 1;
  const hi = s[m];
  const lo = s[m - 1];
  if (hi === undefined) return null;
  return s.length % 2 || lo === undefined ? hi : (lo + hi) / 2;
}
