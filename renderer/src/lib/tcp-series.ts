/**
 * The Run screen's second panel: what the sending kernels say, per tick —
 * the median smoothed RTT over the sending streams (ms) and the sum of their
 * congestion windows and of the peer's advertised windows (bytes). Readings
 * come only from sides with the native addon; none at all means "unknown",
 * never zero. Series are bounded like the throughput chart's.
 */
import type { LiveSample, LiveTcp } from '../../../electron/contract/api.js';
import { push, type Point } from './live-series.js';

export class TcpSeries {
  readonly rttMs: Point[] = [];
  readonly cwndBytes: Point[] = [];
  /** Latest figures (null = not reported). */
  rttNowMs: number | null = null;
  cwndNowBytes: number | null = null;
  peerWindowNowBytes: number | null = null;
  retransSegments: number | null = null;
  /** Streams in the latest reading. */
  streams = 0;
  readings = 0;

  constructor(private readonly maxPoints = 600) {}

  /** Feed every sample; those without TCP readings are ignored. */
  add(s: LiveSample): void {
    const tcp = s.tcp;
    if (!tcp || tcp.length === 0) return;
    this.readings++;
    this.streams = tcp.length;
    this.rttNowMs = median(
      tcp
        .map((x) => x.rttUs)
        .filter(known)
        .map((us) => us / 1000),
    );
    this.cwndNowBytes = sum(tcp, 'sndCwndBytes');
    this.peerWindowNowBytes = sum(tcp, 'sndWndBytes');
    this.retransSegments = sum(tcp, 'totalRetransSegments');
    if (this.rttNowMs !== null) push(this.rttMs, { x: s.t, y: this.rttNowMs }, this.maxPoints);
    if (this.cwndNowBytes !== null) push(this.cwndBytes, { x: s.t, y: this.cwndNowBytes }, this.maxPoints);
  }
}

function known(v: number | null): v is number {
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
