/**
 * The result's `delay` (contract/delay-info.ts): the RTT idle and under load
 * and the queueing between them, read off the same figures the limiter
 * verdict quotes (limiter-inputs.ts), so the summary's "the path adds X of
 * queueing" and the link-limited sentence cannot disagree.
 */
import type { LonghaulResult } from '../contract/result.js';
import type { DelayInfo } from '../contract/delay-info.js';
import { limiterInputs } from './limiter-inputs.js';
import { queueingUs } from '../contract/delay-info.js';
import type { StreamResult } from '../contract/result.js';

/** Per stream the highest queueing of any reading with data in flight, the median over streams, ms. */
function peakQueueingMs(streams: StreamResult[]): number | null {
  const peaks = streams
    .map((s) => (s.send?.tcp ?? []).filter((x) => (x.unackedSegments ?? 1) > 0).map((x) => queueingUs(x.rttUs, x.minRttUs)))
    .map((qs) => qs.filter((q): q is number => q !== null))
    .filter((qs) => qs.length > 0)
    .map((qs) => Math.max(...qs))
    .sort((a, b) => a - b);
  const mid = peaks.length >> 1;
  const hi = peaks[mid];
  const lo = peaks[mid - 1];
  if (hi === undefined) return null;
  return (peaks.length % 2 || lo === undefined ? hi : (lo + hi) / 2) / 1000;
}

const ms = (s: number | null | undefined): number | null => (s === null || s === undefined ? null : s * 1000);

/** The delay under load of the first direction whose senders reported TCP_INFO; undefined when no direction carried data. */
/** The control channel's figures (engine/session/control-pinger.ts) as the result's pings: min idle, median loaded. */
export interface ControlRtts {
  idleMs: number[];
  loadedMs: number[];
}

/**
 * Add the control channel's round trips to the result's `delay`; where TCP_INFO gave none (no delay yet), a
 * delay of the first direction that carried data, its TCP figures unknown.
 */
export function attachControlDelay(r: Pick<LonghaulResult, 'directions' | 'delay'>, c: ControlRtts | null): void {
  if (!c) return;
  const direction = r.directions.controllerToResponder ? 'controllerToResponder' : r.directions.responderToController ? 'responderToController' : null;
  if (!r.delay && !direction) return;
  const base: DelayInfo = r.delay ?? {
    direction: direction ?? 'controllerToResponder',
    idleRttMs: null,
    idleSource: 'unknown',
    loadedRttMs: null,
    loadedSource: 'unknown',
    queueingMs: null,
  };
  const sorted = [...c.loadedMs].sort((a, b) => a - b);
  r.delay = {
    ...base,
    controlIdleRttMs: c.idleMs.length ? Math.min(...c.idleMs) : null,
    controlLoadedRttMs: sorted.length ? (sorted[Math.floor(sorted.length / 2)] ?? null) : null,
    controlPings: { idle: c.idleMs.length, loaded: c.loadedMs.length },
  };
}

export function summarizeDelay(r: Pick<LonghaulResult, 'directions' | 'streams'>): DelayInfo | undefined {
  let fallback: DelayInfo | undefined;
  for (const direction of ['controllerToResponder', 'responderToController'] as const) {
    const total = r.directions[direction];
    if (!total) continue;
    const sender = direction === 'controllerToResponder' ? 'controller' : 'responder';
    const streams = r.streams.filter((s) => s.sender === sender);
    const i = limiterInputs(streams, total.bitsPerSecond, total.seconds);
    const idleRttMs = ms(i.minRttSeconds);
    const loadedRttMs = ms(i.rttSeconds);
    const d: DelayInfo = {
      direction,
      idleRttMs,
      idleSource: idleRttMs === null ? 'unknown' : 'tcp_info min_rtt',
      loadedRttMs,
      loadedSource: loadedRttMs === null ? 'unknown' : 'tcp_info smoothed rtt',
      queueingMs: ms(i.queueingSeconds),
      peakQueueingMs: peakQueueingMs(streams),
    };
    if (d.queueingMs !== null) return d;
    fallback ??= d;
  }
  return fallback;
}
