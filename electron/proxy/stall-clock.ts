/**
 * Time the emulator's process did not run while it carried data: a 5 ms tick
 * that came more than STALL_MS later than the timer's own floor (the shortest
 * gap seen) counts that lateness, less the CPU time the process used meanwhile,
 * as a stall (the process was stopped, or its CPU went to others; a busy event
 * loop is not a stall). Bytes that arrived during a
 * stall are scheduled from when the relay saw them, so the late-byte count
 * alone cannot see it; this can. Ticks only while connections are open.
 */
const TICK_MS = 5;
/** A tick later than this counts: a timer's ordinary lateness is about 1 ms. */
export const STALL_MS = 10;

/** This process's CPU time so far, all threads, user and system, ms. */
function processCpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

export class StallClock {
  stalledMs = 0;
  private timer: NodeJS.Timeout | null = null;
  private last = 0;
  private lastCpuMs = 0;
  /** The shortest gap between two ticks so far, ms. */
  private floorMs = Infinity;

  /** `now`: the relay's clock, ms; `cpuMs`: this process's CPU time, ms (tests drive both). */
  constructor(
    private readonly now: () => number,
    private readonly cpuMs: () => number = processCpuMs,
  ) {}

  /** Tick while `active` says so (checked on every tick). */
  start(active: () => boolean): void {
    if (this.timer) return;
    this.last = this.now();
    this.lastCpuMs = this.cpuMs();
    this.timer = setInterval(() => {
      const t = this.now();
      const gap = t - this.last;
      // The timer's own floor, as seen: 5 ms where the OS keeps a fine clock, ~15.6 ms on a Windows
      // PC at its default timer resolution (and under Wine). Lateness counts beyond it.
      if (gap < this.floorMs) this.floorMs = gap;
      const late = gap - Math.max(TICK_MS, this.floorMs);
      // A late tick of a busy event loop is not a stall: the part of the gap the process spent on
      // a CPU (any of its threads) ran; only the rest did not (stopped, or the CPU went to others).
      const cpuMs = this.cpuMs();
      const ranMs = cpuMs - this.lastCpuMs;
      this.lastCpuMs = cpuMs;
      if (late > STALL_MS) this.stalledMs += Math.max(0, Math.min(late, gap - ranMs));
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
