/**
 * The native side of a data worker's streams: dial with the window set before
 * the handshake (falling back on the OS default, and saying why), describe
 * each socket once it is up, and read its TCP_INFO once per interval tick.
 * Kept out of data-worker.ts so the worker's byte loop stays what it was.
 */
import net from 'node:net';
import type { SocketReport, TcpSample } from '../contract/result.js';
import { nativeSockets } from '../native/load-native.js';
import { ClampWatch, type AppliedWindow } from '../native/advertised-window.js';
import { describeSocket, readTcpSample, type WindowSetup } from '../native/socket-report.js';
import { adoptionUnsupportedReason, createTunedSocket, resolveHost, socketFd } from '../native/tuned-socket.js';

export interface DialedStream {
  socket: net.Socket;
  setup: WindowSetup;
}

/** Sockets whose advertised-window clamp is kept at the request (advertised-window.ts). */
const clampWatches = new WeakMap<net.Socket, ClampWatch>();

/**
 * Controller side: connect to the responder. With a window requested and the
 * addon present, the window (clamp and buffers, advertised-window.ts) is set on the socket before connect();
 * otherwise this is a plain `net.connect` and `setup` says why.
 */
export async function dialStream(host: string, port: number, windowBytes: number | null, onread?: net.OnReadOpts): Promise<DialedStream> {
  const native = nativeSockets();
  const unsupported = native.api ? adoptionUnsupportedReason() : native.reason;
  if (windowBytes === null || unsupported !== null || !native.api) {
    const opts: net.TcpNetConnectOpts = { host, port };
    if (onread) opts.onread = onread;
    const reason = windowBytes === null ? null : unsupported;
    return { socket: net.connect(opts), setup: { requestedBytes: windowBytes, appliedBeforeHandshake: false, reason } };
  }
  const { address, family } = await resolveHost(host);
  const { socket, applied } = createTunedSocket(native.api, { family, windowBytes, onread });
  socket.connect({ host: address, port });
  return { socket, setup: { requestedBytes: windowBytes, appliedBeforeHandshake: true, reason: null, window: applied } };
}

/** Responder side: the accepted socket inherited the listener's buffers if the engine set them. */
export function adoptedSetup(
  windowBytes: number | null,
  listener: { applied: boolean; reason: string | null; window?: AppliedWindow | null } | undefined,
): WindowSetup {
  if (windowBytes === null) return { requestedBytes: null, appliedBeforeHandshake: false, reason: null };
  if (listener?.applied) return { requestedBytes: windowBytes, appliedBeforeHandshake: true, reason: null, window: listener.window ?? null };
  return { requestedBytes: windowBytes, appliedBeforeHandshake: false, reason: listener?.reason ?? 'the responder did not set its listening socket\'s buffers' };
}

/** Describe a connected stream socket (effective buffers, MSS, window scale). */
export function reportSocket(socket: net.Socket, setup: WindowSetup): SocketReport {
  const native = nativeSockets();
  const fd = socketFd(socket);
  const report = describeSocket(native.api, fd, setup, native.reason);
  if (setup.reason) report.unavailable.unshift({ field: 'window', reason: setup.reason });
  const clamp = setup.window?.clampBytes ?? null;
  if (native.api && fd !== null && clamp !== null && !clampWatches.has(socket)) {
    const watch = new ClampWatch(native.api, fd, clamp, () => !socket.destroyed);
    socket.once('close', () => watch.stopPolling());
    clampWatches.set(socket, watch);
  }
  return report;
}

/** An addon-owned stream socket (native/data-conn.ts) as it was set up, and its clamp kept where the OS has one. */
export interface OwnedStream {
  fd: number;
  report: SocketReport;
  /** TCP_INFO at a tick (null once closed or unreadable). */
  sample(index: number, t: number): TcpSample | null;
  /** Close the socket (once; later calls do nothing). Only after its byte loop has ended. */
  close(): void;
}

/** Describe an owned socket and keep its advertised-window clamp (Linux) until close(). */
export function ownedStream(fd: number, setup: WindowSetup): OwnedStream {
  const native = nativeSockets();
  const api = native.api!;
  const report = describeSocket(api, fd, setup, native.reason);
  let open = true;
  const clamp = setup.window?.clampBytes ?? null;
  const watch = clamp !== null ? new ClampWatch(api, fd, clamp, () => open) : null;
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
export function sampleSocket(socket: net.Socket | null, index: number, t: number): TcpSample | null {
  // Read the descriptor afresh: after a close its number may belong to another socket.
  if (!socket || socket.destroyed) return null;
  clampWatches.get(socket)?.check();
  return readTcpSample(nativeSockets().api, socketFd(socket), index, t);
}
