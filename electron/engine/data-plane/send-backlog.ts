/**
 * Keeps what a sender leaves unsent in its kernel socket to about a quarter
 * second of its own measured rate (TCP_NOTSENT_LOWAT, Linux and macOS).
 *
 * Why: with autotuning, Linux lets a sender queue up to 4 MB unsent: on a
 * slow path, seconds of data the test "sent" before its deadline but the link
 * still has to carry. With the backlog bounded, a timed run stops within about
 * 0.25 s plus one round trip of its deadline, whatever the rate
 * (docs/measurements.md#send-backlog).
 *
 * The rate is what the path took: bytes the peer acknowledged (TCP_INFO
 * bytes_acked), not bytes the socket accepted, which include the backlog itself.
 *
 * A paced sender (--bitrate) is bounded by its pace as well: the path takes no more than the pace,
 * and a first burst (the initial window; 10 × 64 KiB on loopback) must not set the bound to seconds
 * of it (measured at -b 1M on loopback: 5.9 s past a 2 s run's deadline before this, 0.3 s after).
 *
 * Throughput is not touched: the bound is always ≥ 250 ms of what the path
 * carried, so the kernel never runs out of data to send (the sender refills
 * within a wake-up); on loopback the bound (8 MiB at most) is above the send
 * buffer and changes nothing.
 */

/** Unsent data kept, in seconds of the stream's measured rate. */
const BACKLOG_SECONDS = 0.25;
export const MIN_LOWAT_BYTES = 16 * 1024;
export const MAX_LOWAT_BYTES = 8 * 1024 * 1024;
/** Before the first measurement (the first 100 ms): a slow link must not get 4 MB in that time. */
export const INITIAL_LOWAT_BYTES = 128 * 1024;
const PERIOD_MS = 100;
/** Set a new bound only when it moves by more than this share (fewer system calls). */
const HYSTERESIS = 0.25;

/** The bound for a measured rate, bytes. */
export function lowatFor(bytesPerSecond: number): number {
  return Math.round(Math.min(MAX_LOWAT_BYTES, Math.max(MIN_LOWAT_BYTES, bytesPerSecond * BACKLOG_SECONDS)));
}

interface Entry {
  fd: number;
  lastBytes: number;
  lastNs: bigint;
  lowat: number;
  /** The largest bound: 250 ms of the stream's pace, or MAX_LOWAT_BYTES when unpaced. */
  cap: number;
}

export class SendBacklog {
  private readonly entries = new Map<number, Entry>();
  private timer: NodeJS.Timeout | null = null;

  /**
   * `set`: the TCP_NOTSENT_LOWAT setter; `delivered(id)`: bytes of the stream the path has taken
   * so far (acknowledged by the peer), null once the stream is gone.
   */
  constructor(
    private readonly set: (fd: number, bytes: number) => void,
    private readonly delivered: (id: number) => number | null,
    /** Measure every 100 ms on a timer (false: the caller calls tick(), as tests do). */
    private readonly autoTick = true,
    /** The clock rates are measured on (process.hrtime.bigint()'s; tests pass their own). */
    private readonly nowNs: () => bigint = () => process.hrtime.bigint(),
  ) {}

  /** Start bounding a sending stream's backlog (before its first byte); `paceBytesPerSecond`: its --bitrate, null when unpaced. */
  add(id: number, fd: number, paceBytesPerSecond: number | null = null): void {
    const cap = paceBytesPerSecond === null ? MAX_LOWAT_BYTES : lowatFor(paceBytesPerSecond);
    const first = Math.min(INITIAL_LOWAT_BYTES, cap);
    if (!this.apply(fd, first)) return;
    this.entries.set(id, { fd, lastBytes: this.delivered(id) ?? 0, lastNs: this.nowNs(), lowat: first, cap });
    if (!this.timer && this.autoTick) {
      this.timer = setInterval(() => this.tick(), PERIOD_MS);
      this.timer.unref();
    }
  }

  remove(id: number): void {
    this.entries.delete(id);
    if (this.entries.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** The bound now in force for a stream, bytes (undefined when not bounded). */
  lowatOf(id: number): number | undefined {
    return this.entries.get(id)?.lowat;
  }

  /** One measurement (every 100 ms; public for tests). */
  tick(): void {
    const now = this.nowNs();
    for (const [id, e] of this.entries) {
      const bytes = this.delivered(id);
      if (bytes === null) {
        this.remove(id);
        continue;
      }
      const seconds = Number(now - e.lastNs) / 1e9;
      if (seconds <= 0) continue;
      const next = Math.min(e.cap, lowatFor((bytes - e.lastBytes) / seconds));
      e.lastBytes = bytes;
      e.lastNs = now;
      if (Math.abs(next - e.lowat) <= HYSTERESIS * e.lowat) continue;
      if (this.apply(e.fd, next)) e.lowat = next;
      else this.remove(id);
    }
  }

  /** False when the socket is gone (closed under us). */
  private apply(fd: number, bytes: number): boolean {
    try {
      this.set(fd, bytes);
      return true;
    } catch {
      return false;
    }
  }
}
