/**
 * The addon's byte loop (native/src/stream_pump.cc) on one stream's descriptor:
 * what both native loops (a Node socket's dup, an owned socket) share.
 */
import type { NativePump, PumpEndReason } from '../../../native/native-api.js';
import type { StreamSendPath } from '../../../contract/send-path.js';
import type { Counts, LoopHost, Stream } from './stream.js';

type PumpDone = (err: NodeJS.ErrnoException | null, reason: PumpEndReason) => void;

export class PumpRun {
  /** The loop, once started; its counters add to the stream's. */
  pump: NativePump | null = null;
  running = false;

  constructor(
    private readonly host: LoopHost,
    private readonly s: Stream,
  ) {}

  /** Start the loop on `fd`: null when it runs, else why it could not start. */
  start(fd: number | null, onDone: PumpDone): string | null {
    const api = this.host.native;
    if (!api || fd === null) return fd === null ? 'the socket has no descriptor' : 'the addon is not loaded';
    const { role, init } = this.host;
    try {
      this.pump = api.startPump(
        fd,
        {
          role,
          // One write or one read of `--buffer` bytes, as the CLI promises. (Node's loop reads at most
          // 128 KiB; the native loop does not need that cap: 2 x 1 MiB on loopback went from ~0.9 to
          // ~1.4 x iperf3 -P 2 with 1 MiB reads, since batched reads wake the reader once per buffer.)
          bufferBytes: init.bufferBytes,
          // A sender stops at its budget; a receiver only at a cap (the peer's sender honours the budget).
          ...(role === 'send' && this.s.byteLimit !== null ? { budgetBytes: this.s.byteLimit } : {}),
          ...(role === 'receive' && this.s.cap !== null ? { budgetBytes: Math.max(0, this.s.cap - this.s.bytes) } : {}),
          ...(role === 'send' && this.host.deadlineNs !== 0n ? { deadlineNs: this.host.deadlineNs } : {}),
          // --bitrate where the kernel does not pace this socket: the loop's own token bucket.
          ...(role === 'send' && this.s.bucket ? { pacingBytesPerSec: this.s.bucket.bytesPerSec } : {}),
          // -Z: the loop sends with sendfile(2) where the OS allows, and says which call it used.
          ...(role === 'send' && init.zeroCopy ? { zeroCopy: true } : {}),
          // Batching holds up to ~250 µs of data in the kernel: never when the user set a window to test.
          ...(role === 'receive' ? { batchReads: init.windowBytes === null } : {}),
        },
        (err, reason) => {
          this.running = false;
          this.foldTimes();
          onDone(err, reason);
        },
      );
    } catch (err) {
      return (err as Error).message;
    }
    if (!this.pump) return 'this build of the addon has no byte loop';
    this.running = true;
    return null;
  }

  /** The stream's counts plus the loop's (a receiver may have read a little through Node before its loop took over). */
  counts(): Counts {
    const s = this.s;
    if (!this.pump) return { bytes: s.bytes, completions: s.completions, firstNs: s.firstNs };
    const [bytes, completions, loopFirstNs] = this.pump.snapshot();
    const firstNs = s.firstNs === 0n || (loopFirstNs !== 0n && loopFirstNs < s.firstNs) ? loopFirstNs : s.firstNs;
    return { bytes: s.bytes + bytes, completions: s.completions + completions, firstNs };
  }

  stop(): void {
    this.pump?.stop();
  }

  /** A sender's call as its loop reports it, with why it copied; null before the loop has a thread. */
  sendPath(): StreamSendPath | null {
    if (!this.pump) return null;
    const snap = this.pump.snapshot();
    const [path, reason] = [snap[10], snap[11] ?? null];
    if (path === undefined) return { path: 'copy', reason: 'this build of the addon has no zero-copy sender (run npm run build:native)' };
    if (path === 'sendfile') return { path: 'sendfile', reason: null };
    if (path === 'copy') return { path: 'copy', reason: reason ?? 'the byte loop copies with send()' };
    return null;
  }

  /** Fold the loop's first/last byte times into the stream's (receive: first and last read), and note its thread's CPU. */
  private foldTimes(): void {
    if (!this.pump) return;
    const s = this.s;
    const [, , firstNs, lastNs, , thread, cpuStartNs, cpuEndNs, waitStartNs = -1, waitEndNs = -1] = this.pump.snapshot();
    if (thread !== undefined && cpuStartNs !== undefined && cpuEndNs !== undefined)
      s.thread = { thread, startNs: cpuStartNs, endNs: cpuEndNs, waitStartNs, waitEndNs };
    if (firstNs !== 0n && (s.firstNs === 0n || firstNs < s.firstNs)) s.firstNs = firstNs;
    if (this.host.role === 'receive' && lastNs > s.lastNs) s.lastNs = lastNs;
  }
}
