/**
 * When a schedule's tests are due. A schedule's clock numbers its slots, so a restart can compare
 * the slot under way with the last one run (schedule-state.ts keeps it):
 *
 *   every INTERVAL   slot k = whole intervals since 1970-01-01 (UTC): it starts at k × every
 *   cron LINE        slot k = the minute (since 1970) of an occurrence of the line, local time
 *
 * and every slot starts later by the schedule's offset, a small "random" shift, the same for a
 * schedule on a PC (a hash of its name and the PC's name): laptops on one schedule do not all start in
 * the same second (up to a tenth of the interval, at most 30 s). So "every 15 min" falls on the same
 * minutes on every PC and after every restart. A round that overran its slot, or a PC that slept,
 * does not queue the slots it missed: the next round is the current slot, run once.
 */
import { createHash } from 'node:crypto';
import { Cron } from 'croner';

/** The largest offset, ms, and its share of the interval. */
const MAX_OFFSET_MS = 30_000;
const MAX_OFFSET_SHARE = 0.1;
const MINUTE_MS = 60_000;

/** A schedule's slots, before its offset. */
export interface SlotClock {
  /** The interval, or a cron line's shortest gap between two occurrences (over the next ones): ms. */
  readonly everyMs: number;
  /** The slot under way at `ms` (epoch), or null before the first. */
  slotAt(ms: number): number | null;
  /** When `slot` starts, epoch ms. */
  startMs(slot: number): number;
  /** The slot after `slot`, or null when there is none (a cron line's last date). */
  after(slot: number): number | null;
}

/** Slots of a fixed interval. */
export function intervalClock(everyMs: number): SlotClock {
  return {
    everyMs,
    slotAt: (ms) => Math.floor(ms / everyMs),
    startMs: (slot) => slot * everyMs,
    after: (slot) => slot + 1,
  };
}

/** How many of a cron line's next occurrences set its nominal interval (the shortest gap among them). */
const CRON_GAP_SAMPLES = 32;

/**
 * Slots of a cron line: minute, hour, day of month, month, day of week, in this PC's local time
 * (as cron reads it; daylight saving as croner handles it). Throws croner's reason for a bad line.
 */
export function cronClock(line: string): SlotClock {
  const cron = new Cron(line, { paused: true, mode: '5-part' });
  const next = cron.nextRuns(CRON_GAP_SAMPLES, new Date());
  if (next.length === 0) throw new Error(`"${line}" never occurs`);
  let everyMs = Infinity;
  for (let i = 1; i < next.length; i++) everyMs = Math.min(everyMs, (next[i] as Date).getTime() - (next[i - 1] as Date).getTime());
  if (!Number.isFinite(everyMs)) everyMs = Number.MAX_SAFE_INTEGER;
  return {
    everyMs,
    slotAt: (ms) => {
      // An occurrence at exactly `ms` is under way: look back from just after it.
      const prev = cron.previousRuns(1, new Date(ms + 1))[0];
      return prev ? Math.floor(prev.getTime() / MINUTE_MS) : null;
    },
    startMs: (slot) => slot * MINUTE_MS,
    after: (slot) => {
      const n = cron.nextRun(new Date(slot * MINUTE_MS));
      return n ? Math.floor(n.getTime() / MINUTE_MS) : null;
    },
  };
}

/** The schedule's offset, ms: in [0, min(interval × 0.1, 30 s)), fixed for this name on this PC. */
export function slotOffsetMs(everyMs: number, scheduleName: string, hostname: string): number {
  const span = Math.min(everyMs * MAX_OFFSET_SHARE, MAX_OFFSET_MS);
  if (span < 1) return 0;
  const h = createHash('sha256').update(`${scheduleName}\0${hostname}`).digest();
  return Math.floor((h.readUInt32BE(0) / 2 ** 32) * span);
}

/**
 * The next round: the slot to run and when (null: the clock has no slot to run). A schedule that never
 * ran, or whose last round was an earlier slot than the current one, runs the current slot now (once,
 * however many it missed); otherwise it waits for the next slot's start.
 */
export function nextRound(nowMs: number, clock: SlotClock, offsetMs: number, lastSlot: number | null): { slot: number; atMs: number } | null {
  const current = clock.slotAt(nowMs - offsetMs);
  // No slot before now: a line that never occurs (refused when the clock is made).
  if (current === null) return null;
  if (lastSlot === null || lastSlot < current) return { slot: current, atMs: nowMs };
  const slot = clock.after(lastSlot);
  return slot === null ? null : { slot, atMs: clock.startMs(slot) + offsetMs };
}
