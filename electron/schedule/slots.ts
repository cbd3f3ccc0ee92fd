/**
 * When a schedule's tests are due. Slots are whole intervals since 1970-01-01 (UTC), moved by the
 * schedule's offset, so "every 15 min" falls on the same minutes on every PC and after every
 * restart, and a slot has a number that a restart can compare (the last slot run is kept).
 *
 *   slot k starts at k × every + offset
 *
 * The offset is a small "random" shift, the same for a schedule on a PC (a hash of its name and the
 * PC's name): laptops on one schedule do not all start in the same second (up to a tenth of the
 * interval, at most 30 s). A round that overran its slot, or a PC that slept, does not queue the
 * slots it missed: the next round is the current slot, run once.
 */
import { createHash } from 'node:crypto';

/** The largest offset, ms, and its share of the interval. */
const MAX_OFFSET_MS = 30_000;
const MAX_OFFSET_SHARE = 0.1;

/** The schedule's offset, ms: in [0, min(interval × 0.1, 30 s)), fixed for this name on this PC. */
export function slotOffsetMs(everyMs: number, scheduleName: string, hostname: string): number {
  const span = Math.min(everyMs * MAX_OFFSET_SHARE, MAX_OFFSET_MS);
  if (span < 1) return 0;
  const h = createHash('sha256').update(`${scheduleName}\0${hostname}`).digest();
  return Math.floor((h.readUInt32BE(0) / 2 ** 32) * span);
}

/** The slot under way at `nowMs` (epoch ms). */
export function slotAt(nowMs: number, everyMs: number, offsetMs: number): number {
  return Math.floor((nowMs - offsetMs) / everyMs);
}

/** When slot `slot` starts, epoch ms. */
export function slotStartMs(slot: number, everyMs: number, offsetMs: number): number {
  return slot * everyMs + offsetMs;
}

/**
 * The next round: the slot to run and when. A schedule that never ran, or whose last round was an
 * earlier slot than the current one, runs the current slot now (once, however many it missed);
 * otherwise it waits for the next slot's start.
 */
export function nextRound(nowMs: number, everyMs: number, offsetMs: number, lastSlot: number | null): { slot: number; atMs: number } {
  const current = slotAt(nowMs, everyMs, offsetMs);
  if (lastSlot === null || lastSlot < current) return { slot: current, atMs: nowMs };
  const slot = lastSlot + 1;
  return { slot, atMs: slotStartMs(slot, everyMs, offsetMs) };
}
