/**
 * The native side of a data worker's streams: dial with the window set before
 * the handshake (falling back on the OS default, and saying why), describe
 * each socket once it is up, and read its TCP_INFO once per interval tick.
 * Kept out of the worker's byte loops (data-worker/) so they stay what they were.
 *
 * A `StreamSockets` works with the addon its worker was given (or none) and
 * keeps clamps with its worker's `ClampPoller`: nothing here looks up the
 * process's addon or keeps a module-level timer.
 */
import net from 'node:net';
import type { SocketReport, TcpSample } from '../../contract/result.js';
import type { NativeApi } from '../../native/native-api.js';
import type { AppliedWindow, ClampPoller, ClampWatch } from '../../native/advertised-window.js';
import { mssNotApplied, type MssSetup } from '../../native/mss-setup.js';
import { describeSocket, readTcpSample, type WindowSetup } from '../../native/socket-report.js';
import { adoptionUnsupportedReason, createTunedSocket, resolveHost } from '../../native/tuned-socket.js';
import { socketFd } from '../../native/node-handle.js';
import { present } from '../../contract/present.js';

interface DialedStream {
  socket: net.Socket;
  setup: WindowSetup;
}

/** What a stream end asks of its socket before the handshake (null = the OS's own). */
export interface StreamTuning {
  windowBytes: number | null;
  mssBytes: number | null;
}

/** What the responder's listener (or owned listener) did for a run: its window and MSS setups, which accepted sockets inherit. */
interface ListenerSetup {
  window?: { applied: boolean; reason: string | null; window?: AppliedWindow | null };
  mss?: MssSetup | null;
}

/** Responder side: the accepted socket inherited the listener's buffers and MSS if the engine set them. */
export function adoptedSetup(want: StreamTuning, listener: ListenerSetup | undefined): WindowSetup {
  const mss = listener?.mss ?? mssNotApplied(want.mssBytes, "the responder did not set its listening socket's MSS");
  const w = listener?.window;
  if (want.windowBytes === null) return { requestedBytes: null, appliedBeforeHandshake: false, reason: null, mss };
  if (w?.applied) return { requestedBytes: want.windowBytes, appliedBeforeHandshake: true, reason: null, window: w.window ?? null, mss };
  return {
    requestedBytes: want.windowBytes,
    appliedBeforeHandshake: false,
    reason: w?.reason ?? "the responder did not set its listening socket's buffers",
    mss,
  };
}

/** An addon-owned stream socket (native/data-path.ts) as it was set up, and its clamp kept where the OS has one. */
export interface OwnedStream {
  fd: number;
  report: SocketReport;
  /** TCP_INFO at a tick (null once closed or unreadable). */
  sample(index: number, t: number): TcpSample | null;
  /** Close the socket (once; later calls do nothing). Only after its byte loop has ended. */
  close(): void;
}

/** The stream sockets of one data worker: its addon (or none), and its clamp poller. */
export class StreamSockets {
  /** Sockets whose advertised-window clamp is kept at the request (advertised-window.ts). */
  private readonly clampWatches = new WeakMap<net.Socket, ClampWatch>();

  /** `missingReason`: why `native` is null, as reports say it. */
  constructor(
    private readonly native: NativeApi | null,
    private readonly missingReason: string | null,
    private readonly poller: ClampPoller,
  ) {}

  /**
   * Controller side: connect to the responder. With a window or an MSS requested and the addon
   * present, they are set on the socket before connect() (advertised-window.ts, mss-setup.ts);
   * otherwise this is a plain `net.connect` and `setup` says why.
   */
  async dial(host: string, port: number, want: StreamTuning, onread?: net.OnReadOpts): Promise<DialedStream> {
    const api = this.native;
    const unsupported = api ? adoptionUnsupportedReason() : this.notLoaded();
    if ((want.windowBytes === null && !want.mssBytes) || unsupported !== null || !api) {
      const opts: net.TcpNetConnectOpts = { host, port };
      if (onread) opts.onread = onread;
      const reason = want.windowBytes === null ? null : unsupported;
      const mss = mssNotApplied(want.mssBytes, unsupported ?? 'the native socket addon is not available');
      return { socket: net.connect(opts), setup: { requestedBytes: want.windowBytes, appliedBeforeHandshake: false, reason, mss } };
    }
    const { address, family } = await resolveHost(host);
    const { socket, applied, mss } = createTunedSocket(api, { family, windowBytes: want.windowBytes, mssBytes: want.mssBytes, onread });
    socket.connect({ host: address, port });
    const window: WindowSetup =
      want.windowBytes === null
        ? { requestedBytes: null, appliedBeforeHandshake: false, reason: null }
        : { requestedBytes: want.windowBytes, appliedBeforeHandshake: true, reason: null, window: applied };
    return { socket, setup: { ...window, mss } };
  }

  /** Describe a connected stream socket (effective buffers, MSS, window scale), and keep its clamp. */
  report(socket: net.Socket, setup: WindowSetup): SocketReport {
    const fd = socketFd(socket);
    const report = describeSocket(this.native, fd, setup, this.missingReason);
    if (setup.reason) report.unavailable.unshift({ field: 'window', reason: setup.reason });
    const clamp = setup.window?.clampBytes ?? null;
    if (this.native && fd !== null && clamp !== null && !this.clampWatches.has(socket)) {
      const watch = this.poller.watch(this.native, fd, clamp, () => !socket.destroyed);
      socket.once('close', () => watch.stopPolling());
      this.clampWatches.set(socket, watch);
    }
    return report;
  }

  /** Describe an owned socket and keep its advertised-window clamp (Linux) until close(). */
  owned(fd: number, setup: WindowSetup): OwnedStream {
    const api = present(this.native, 'the native addon (an owned stream is made by it)');
    const report = describeSocket(api, fd, setup, this.missingReason);
    let open = true;
    const clamp = setup.window?.clampBytes ?? null;
    const watch = clamp !== null ? this.poller.watch(api, fd, clamp, () => open) : null;
    return {
      fd,
      report,
      sample(index, t) {
        if (!open) return null;
        watch?.check();
        return readTcpSample(api, fd, index, t);
      },
      close() {
        if (!open) return;
        open = false;
        watch?.stopPolling();
        try {
          api.closeFd(fd);
        } catch {
          // already gone
        }
      },
    };
  }

  /** TCP_INFO of a live socket at a tick; null once the socket is closed or without the addon. */
  sample(socket: net.Socket | null, index: number, t: number): TcpSample | null {
    // Read the descriptor afresh: after a close its number may belong to another socket.
    if (!socket || socket.destroyed) return null;
    this.clampWatches.get(socket)?.check();
    return readTcpSample(this.native, socketFd(socket), index, t);
  }

  private notLoaded(): string {
    return this.missingReason ?? 'the native socket addon is not available';
  }
}
