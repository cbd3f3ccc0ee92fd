/**
 * The stream plan derived from a run's parameters. The parameters' schema and
 * limits live in protocol/run-params.ts (the control channel validates them
 * too); they are re-exported here for the engine's callers.
 */
export {
  DEFAULT_PARAMS, MAX_BUFFER_BYTES, MAX_SECONDS, MAX_STREAMS, MAX_WINDOW_BYTES, MIN_INTERVAL_SECONDS,
  MAX_MSS_BYTES, MIN_MSS_BYTES,
  directionSchema, runParamsSchema, type Direction, type RunParams,
} from '../protocol/run-params.js';
import type { RunParams } from '../protocol/run-params.js';

/** Which end writes a stream's bytes. */
export type StreamSender = 'controller' | 'responder';

export interface PlannedStream {
  id: number;
  sender: StreamSender;
  /** Byte budget for this stream when the run is bounded by bytes, else null. */
  bytes: number | null;
}

/**
 * The streams a run opens. Data connections always go from the controller to
 * the responder (one port to open in a firewall, and a responder never dials
 * out); `sender` says which end writes on each.
 */
export function planStreams(p: RunParams): PlannedStream[] {
  const senders: StreamSender[] =
    p.direction === 'forward' ? ['controller'] : p.direction === 'reverse' ? ['responder'] : ['controller', 'responder'];
  const plan: PlannedStream[] = [];
  for (const sender of senders) {
    for (let i = 0; i < p.streams; i++) {
      plan.push({ id: plan.length, sender, bytes: p.bytes === null ? null : splitBytes(p.bytes, p.streams, i) });
    }
  }
  return plan;
}

/** Share `total` bytes over `n` streams: equal parts, the remainder to the first streams. */
export function splitBytes(total: number, n: number, index: number): number {
  const base = Math.floor(total / n);
  return base + (index < total % n ? 1 : 0);
}
