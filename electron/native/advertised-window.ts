/**
 * `--window W` as the window the receiver advertises, where the OS lets us say
 * so (Linux): TCP_WINDOW_CLAMP = W before the handshake, so the window scale
 * and every advertisement follow W, with buffers of 2 × W so that memory never
 * holds the window below W (Linux doubles SO_RCVBUF and advertises only its
 * measured payload share of it, ~0.6 of the memory for 1448-byte segments;
 * docs/measurements.md#advertised-window).
 *
 * Elsewhere (macOS, Windows, an addon built before the clamp) the window is
 * the socket buffers of W, as before, and the report says so.
 *
 * Linux ≥ 6.8 re-derives the clamp from the buffer whenever its measured
 * payload/memory ratio of received segments changes (tcp_measure_rcv_mss),
 * which undoes a clamp set before the handshake.
 * `ClampWatch` puts it back: once when the connection is up, then every 5 ms
 * for the connection's first minute (one `ClampPoller` timer per data worker
 * for all its sockets, one getsockopt each), then at every sampling tick. Between the kernel's change
 * and the correction (≤ 5 ms in the first minute) the advertised window can
 * exceed W.
 */
import type { NativeApi } from './native-api.js';

/** What was put on one socket for a window request. */
export interface AppliedWindow {
  /** TCP_WINDOW_CLAMP set before the handshake, bytes; null where the OS has none. */
  clampBytes: number | null;
  /** SO_SNDBUF / SO_RCVBUF asked for, bytes. */
  bufferBytes: number;
  /** The buffers were set above net.core.rmem_max / wmem_max with SO_*BUFFORCE (root / CAP_NET_ADMIN). */
  forced: boolean;
  /** Why the buffers stay below what the clamp needs (null when they do not). */
  cappedReason: string | null;
}

/** The buffer size to ask for: 2 × W with a clamp (the clamp bounds the window), W without (the buffer does). */
export function bufferBytesFor(api: NativeApi, windowBytes: number): number {
  return api.windowClamp ? 2 * windowBytes : windowBytes;
}

/**
 * After SO_SNDBUF / SO_RCVBUF of `bufferBytesFor()` are set on `fd`: set the
 * clamp, and lift buffers the OS capped when this process may.
 */
export function clampWindow(api: NativeApi, fd: number, windowBytes: number): AppliedWindow {
  const bufferBytes = bufferBytesFor(api, windowBytes);
  if (!api.windowClamp) return { clampBytes: null, bufferBytes, forced: false, cappedReason: null };
  api.windowClamp.set(fd, windowBytes);
  const b = api.getBuffers(fd);
  // Linux reads back twice what was set; less means net.core.rmem_max / wmem_max capped it.
  const capped = (b.rcvBufBytes ?? 0) < 2 * bufferBytes || (b.sndBufBytes ?? 0) < 2 * bufferBytes;
  if (!capped) return { clampBytes: windowBytes, bufferBytes, forced: false, cappedReason: null };
  try {
    api.windowClamp.forceBuffers(fd, bufferBytes, bufferBytes);
    return { clampBytes: windowBytes, bufferBytes, forced: true, cappedReason: null };
  } catch (err) {
    return {
      clampBytes: windowBytes,
      bufferBytes,
      forced: false,
      cappedReason: `buffers capped by net.core.rmem_max / wmem_max (${(err as Error).message}): the advertised window may stay below ${windowBytes} B`,
    };
  }
}

const FAST_POLL_MS = 5;
/** How long after the connection a socket is polled: the data's first segments arrive within it. */
const FAST_POLL_LIMIT_NS = 60_000_000_000n;

/** The clock and timer a poller runs on (a data worker's Clock fits; tests mock it). */
interface PollClock {
  nowNs(): bigint;
  setInterval(fn: () => void, ms: number): NodeJS.Timeout;
  clearInterval(t: NodeJS.Timeout): void;
}

/**
 * The watches of one owner (a data worker) and the one timer that polls them
 * all in their first minute. The owner drives it with its clock and closes it
 * when its run is over; nothing is kept at module level, so two workers (or a
 * test and a worker) in one process do not share a timer.
 */
export class ClampPoller {
  /** Every watch still polled, and until when (on the clock's nowNs). */
  private readonly polled = new Map<ClampWatch, bigint>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly clock: PollClock) {}

  /** Start keeping one connected socket's clamp at `clampBytes` (see ClampWatch). */
  watch(api: NativeApi, fd: number, clampBytes: number, isOpen: () => boolean): ClampWatch {
    const w = new ClampWatch(api, fd, clampBytes, isOpen, this);
    this.polled.set(w, this.clock.nowNs() + FAST_POLL_LIMIT_NS);
    if (!this.timer) {
      this.timer = this.clock.setInterval(() => this.pollAll(), FAST_POLL_MS);
      // A poll never keeps the process alive: the sockets it watches do, while they matter.
      this.timer.unref?.();
    }
    return w;
  }

  /** How many watches are still polled (for tests and the worker's end). */
  get size(): number {
    return this.polled.size;
  }

  /** Stop polling one watch (its socket closed, or its minute is over). */
  release(w: ClampWatch): void {
    this.polled.delete(w);
    if (this.polled.size === 0 && this.timer) {
      this.clock.clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Stop polling every watch; the timer is gone. Safe to call twice. */
  close(): void {
    for (const w of [...this.polled.keys()]) this.release(w);
  }

  private pollAll(): void {
    const now = this.clock.nowNs();
    for (const [w, until] of this.polled) {
      w.check();
      if (now > until) this.release(w);
    }
  }
}

/** Keeps one connected socket's clamp at W (see the file comment); made by ClampPoller.watch(). */
export class ClampWatch {
  /** How often the kernel had replaced the clamp (each time put back). */
  corrections = 0;

  /** `isOpen` false: the socket is gone, its descriptor number may be reused: never touch it again. Call stopPolling() at its close. */
  constructor(
    private readonly api: NativeApi,
    private readonly fd: number,
    readonly clampBytes: number,
    private readonly isOpen: () => boolean,
    private readonly poller: ClampPoller,
  ) {
    this.check(); // the handshake may have replaced it already (seen on loopback)
  }

  /** Put the clamp back if the kernel replaced it; true when it did. */
  check(): boolean {
    if (!this.isOpen() || !this.api.windowClamp) return false;
    try {
      if (this.api.windowClamp.get(this.fd) === this.clampBytes) return false;
      this.api.windowClamp.set(this.fd, this.clampBytes);
      this.corrections++;
      return true;
    } catch {
      return false; // closed under us: nothing to keep
    }
  }

  stopPolling(): void {
    this.poller.release(this);
  }
}
