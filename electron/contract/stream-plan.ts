/**
 * The streams a run opens, and which end writes each: one rule for the engine
 * (engine/session/params.ts re-exports it) and the UI's live charts. Data connections
 * always go from the controller to the responder (one port to open in a
 * firewall, and a responder never dials out); `sender` says which end writes.
 */
import type { Direction } from './result.js';

/** Which end writes a stream's bytes. */
export type StreamSender = 'controller' | 'responder';

export interface PlannedStream {
  id: number;
  sender: StreamSender;
  /** Byte budget for this stream when the run is bounded by bytes, else null. */
  bytes: number | null;
}

/** Forward: the controller's N streams; reverse: the responder's; bidir: the controller's N, then the responder's N. */
export function planStreams(p: { streams: number; direction: Direction; bytes: number | null }): PlannedStream[] {
  const senders: StreamSender[] = p.direction === 'forward' ? ['controller'] : p.direction === 'reverse' ? ['responder'] : ['controller', 'responder'];
  const plan: PlannedStream[] = [];
  for (const sender of senders) {
    for (let i = 0; i < p.streams; i++) {
      plan.push({ id: plan.length, sender, bytes: p.bytes === null ? null : splitBytes(p.bytes, p.streams, i) });
    }
  }
  return plan;
}

/** Who sends stream `id` of a run, without building its plan (the live charts ask per sample). */
export function senderOf(direction: Direction, streams: number): (id: number) => StreamSender {
  return (id) => (direction === 'reverse' ? 'responder' : direction === 'bidir' && id >= streams ? 'responder' : 'controller');
}

/** Share `total` bytes over `n` streams: equal parts, the remainder to the first streams. */
function splitBytes(total: number, n: number, index: number): number {
  const base = Math.floor(total / n);
  return base + (index < total % n ? 1 : 0);
}
