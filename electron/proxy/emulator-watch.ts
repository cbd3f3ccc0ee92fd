/**
 * The link emulator watching itself, one direction of every connection:
 * whether it kept its own schedule, so that a result can tell the emulated
 * link's limit from the emulator's (a busy 2-core laptop, a rate above what
 * this PC can relay).
 *
 * Two signs, both measured, neither guessed:
 * - **late bytes**: bytes the model had scheduled to leave at t that the relay
 *   released more than LATE_MS after t (its event loop or CPU was elsewhere).
 *   Waits for a receiver that stopped reading are the receiver's, not counted.
 * - **behind**: time the relay's reader had more waiting from the sender than
 *   one full read took while the model had room for it (byte-mover.ts,
 *   native/src/relay_pump.cc), counted only when the emulated link had nothing
 *   left to carry (pipe.ts): the link waited for the relay, not the other way.
 */
import type { EmulatorDirectionInfo } from '../contract/link-info.js';

/** What the watch reads of a connection: its reader's time behind the sender while the link starved (pipe.ts). */
interface Behind {
  readonly behindMs: number;
}

/** A byte released this long after its scheduled time counts as late: a JS timer's tick is 1 ms, a busy event loop's more. */
export const LATE_MS = 10;

export class EmulatorWatch {
  private releasedBytes = 0;
  private lateBytes = 0;
  private maxLateMs = 0;
  private firstMs: number | null = null;
  private lastMs = 0;
  /** The largest behindMs of the movers of connections that ended (the busiest connection speaks for the link). */
  private endedBehindMs = 0;
  private readonly live = new Set<Behind>();

  /** `bytes` left the relay at `nowMs`, scheduled for `dueMs`; `receiverHeld`: they waited for the sink to drain. */
  released(bytes: number, dueMs: number, nowMs: number, receiverHeld: boolean): void {
    this.releasedBytes += bytes;
    this.firstMs ??= nowMs;
    this.lastMs = nowMs;
    if (receiverHeld) return;
    const late = nowMs - dueMs;
    if (late > this.maxLateMs) this.maxLateMs = late;
    if (late > LATE_MS) this.lateBytes += bytes;
  }

  /** The pipe of a new connection of this direction (its behind time is counted while it lives and after). */
  track(pipe: Behind): void {
    this.live.add(pipe);
  }

  untrack(pipe: Behind): void {
    if (!this.live.delete(pipe)) return;
    this.endedBehindMs = Math.max(this.endedBehindMs, pipe.behindMs);
  }

  /** The figures so far, or null when nothing went this way. */
  figures(): EmulatorDirectionInfo | null {
    if (this.firstMs === null) return null;
    let behindMs = this.endedBehindMs;
    for (const m of this.live) behindMs = Math.max(behindMs, m.behindMs);
    return {
      releasedBytes: this.releasedBytes,
      activeSeconds: (this.lastMs - this.firstMs) / 1000,
      lateBytes: this.lateBytes,
      maxLateMs: Math.round(this.maxLateMs * 1000) / 1000,
      behindSeconds: Math.round(behindMs) / 1000,
    };
  }
}
