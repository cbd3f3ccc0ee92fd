/**
 * Sockets whose buffers are set before the TCP handshake, handed to Node.
 * The window scale is fixed in the SYN, so SO_RCVBUF/SO_SNDBUF must be set
 * before connect() (controller side) or before the SYN reaches the listener
 * (responder side: accepted sockets inherit the listener's sizes).
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import type { NativeApi, NativeBuffers } from './native-api.js';

/** The OS descriptor behind a Node socket or server (Unix); null where Node does not expose one (Windows). */
export function socketFd(s: net.Socket | net.Server): number | null {
  const fd = (s as unknown as { _handle?: { fd?: number } | null })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : null;
}

/** Resolve `host` once so the native socket is created in the family it will connect in. */
export async function resolveHost(host: string): Promise<{ address: string; family: 4 | 6 }> {
  const kind = net.isIP(host);
  if (kind !== 0) return { address: host, family: kind as 4 | 6 };
  const r = await dns.lookup(host);
  return { address: r.address, family: r.family === 6 ? 6 : 4 };
}

/**
 * Why a pre-configured socket cannot be handed to Node here, or null when it can.
 * Node adopts descriptors on Unix only; on Windows its TCP handles do not take a SOCKET.
 */
export function adoptionUnsupportedReason(platform: NodeJS.Platform = process.platform): string | null {
  return platform === 'win32' ? 'Node cannot adopt a native SOCKET on Windows, so the window cannot be set before connect there yet' : null;
}

export interface TunedSocketOptions {
  family: 4 | 6;
  /** SO_SNDBUF and SO_RCVBUF, bytes, set before connect. */
  windowBytes: number;
  /** Node's zero-copy read option, as for net.connect. */
  onread?: net.OnReadOpts;
}

/**
 * A Node socket over a native descriptor whose buffers are already set; call
 * `.connect({ host, port })` on it. The descriptor is closed if Node refuses it.
 */
export function createTunedSocket(api: NativeApi, o: TunedSocketOptions): net.Socket {
  const { fd } = api.createTcpSocket({ family: o.family, sndBufBytes: o.windowBytes, rcvBufBytes: o.windowBytes, noDelay: true });
  try {
    // `onread` is honoured for fd-backed sockets too (Node sets the user buffer on the handle at construction).
    const opts: net.SocketConstructorOpts & { onread?: net.OnReadOpts } = { fd };
    if (o.onread) opts.onread = o.onread;
    return new net.Socket(opts);
  } catch (err) {
    api.closeFd(fd);
    throw err;
  }
}

/** What tuning a listener did, and how to undo it. */
export type ListenerTuning =
  | { applied: true; effective: NativeBuffers; restore: () => string | null }
  | { applied: false; reason: string; restore: () => string | null };

/** On Linux, SO_*BUF reads back twice what was set; to put a size back, ask for half. */
function requestFor(effectiveBytes: number): number {
  return process.platform === 'linux' ? Math.floor(effectiveBytes / 2) : effectiveBytes;
}

/**
 * Set a listening server's SO_SNDBUF/SO_RCVBUF so connections accepted from
 * now on start with that window. `restore()` puts the previous sizes (and,
 * on Linux, the autotuning state) back and returns a problem description or null.
 */
export function tuneListener(api: NativeApi, server: net.Server, windowBytes: number): ListenerTuning {
  const noop = (): null => null;
  const fd = socketFd(server);
  if (fd === null) return { applied: false, reason: 'this platform does not expose the listening socket to native code', restore: noop };
  let before: NativeBuffers;
  try {
    before = api.getBuffers(fd);
    api.setBuffers(fd, windowBytes, windowBytes);
  } catch (err) {
    return { applied: false, reason: `could not set the listener's buffers: ${(err as Error).message}`, restore: noop };
  }
  let restored = false;
  const restore = (): string | null => {
    if (restored) return null;
    restored = true;
    // A closed server's descriptor number may already belong to another socket: never touch it.
    if (!server.listening || socketFd(server) !== fd) return null;
    try {
      api.setBuffers(fd, requestFor(before.sndBufBytes ?? 0), requestFor(before.rcvBufBytes ?? 0));
      if (before.sndLocked !== null && before.rcvLocked !== null) api.setBufferLocks(fd, before.sndLocked, before.rcvLocked);
      const after = api.getBuffers(fd);
      if (after.sndBufBytes !== before.sndBufBytes || after.rcvBufBytes !== before.rcvBufBytes || after.rcvLocked !== before.rcvLocked) {
        return `listener buffers not fully restored: before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`;
      }
      return null;
    } catch (err) {
      // The listener may be closed already (responder shutting down): nothing left to restore.
      return `could not restore the listener's buffers: ${(err as Error).message}`;
    }
  };
  return { applied: true, effective: api.getBuffers(fd), restore };
}
