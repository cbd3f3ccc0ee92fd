/**
 * Time the emulator's process did not run while it carried data: a 5 ms tick
 * that came late by more than STALL_MS counts its lateness as a stall (the
 * process was stopped, or its CPU went to others). Bytes that arrived during a
 * stall are scheduled from when the relay saw them, so the late-byte count
 * alone cannot see it; this can. Ticks only while connections are open.
 */
const TICK_MS = 5;
/** A tick later than this counts: a timer's ordinary lateness is about 1 ms. */
export const STALL_MS = 10;

export class StallClock {
  stalledMs = 0;
  private timer: NodeJS.Timeout | null = null;
  private last = 0;

  constructor(private readonly now: () => number) {}

  /** Tick while `active` says so (checked on every tick). */
  start(active: () => boolean): void {
    if (this.timer) return;
    this.last = this.now();
    this.timer = setInterval(() => {
      const t = this.now();
      const late = t - this.last - TICK_MS;
      if (late > STALL_MS) this.stalledMs += late;
      this.last = t;
      if (!active()) this.stop();
    }, TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
