/**
 * Bytes a receiver read before its clock started. The sender starts at its own t = 0; a receiving
 * side's clock starts when its event loop handles the start message, and a busy loop handles it late
 * while the data threads already read. Those bytes belong to the first interval, which then began at
 * the first byte, not at 0 (a 0.25-s interval through a 20 Mbit/s link read 27.4 Mbit/s before this:
 * ~90 ms of bytes put in 250 ms). The first sample says so as `from` (seconds, < 0).
 */
import type { WorkerRole } from '../worker-messages.js';
import type { Counts, Stream } from './stream.js';

/** `from` for a receiving worker's first sample when a byte came before `startNs`; nothing otherwise. */
export function leadIn(role: WorkerRole, index: number, streams: Iterable<Stream>, startNs: bigint): { from?: number } {
  if (index !== 1 || role !== 'receive') return {};
  let first = 0n;
  for (const s of streams) {
    const { firstNs } = s.loop.counts();
    if (firstNs !== 0n && (first === 0n || firstNs < first)) first = firstNs;
  }
  return first !== 0n && first < startNs ? { from: Number(first - startNs) / 1e9 } : {};
}

/** A stream's counts as its end message carries them (the first byte's time goes as `firstT`). */
export function bytesAndCalls(c: Counts): { bytes: number; completions: number } {
  return { bytes: c.bytes, completions: c.completions };
}
