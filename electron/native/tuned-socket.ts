/**
 * Sockets whose buffers are set before the TCP handshake, handed to Node.
 * The window scale is fixed in the SYN, so SO_RCVBUF/SO_SNDBUF must be set
 * before connect() (controller side) or before the SYN reaches the listener
 * (responder side: accepted sockets inherit the listener's sizes).
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import { bufferBytesFor, clampWindow, type AppliedWindow } from './advertised-window.js';
import { applyMss, type MssSetup } from './mss-setup.js';
import type { NativeApi, NativeBuffers } from './native-api.js';
import { socketFd } from './node-handle.js';

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

interface TunedSocketOptions {
  family: 4 | 6;
  /** The window, bytes, set before connect: the advertised-window clamp where the OS has one, else SO_SNDBUF and SO_RCVBUF (advertised-window.ts); null = the OS default. */
  windowBytes: number | null;
  /** TCP_MAXSEG before connect, bytes; null = the OS's own. */
  mssBytes?: number | null;
  /** Node's zero-copy read option, as for net.connect. */
  onread?: net.OnReadOpts;
}

/**
 * A Node socket over a native descriptor whose window and MSS are already set; call
 * `.connect({ host, port })` on it. The descriptor is closed if Node refuses it.
 */
export function createTunedSocket(api: NativeApi, o: TunedSocketOptions): { socket: net.Socket; applied: AppliedWindow | null; mss: MssSetup | null } {
  const buffer = o.windowBytes === null ? 0 : bufferBytesFor(api, o.windowBytes);
  const { fd } = api.createTcpSocket({ family: o.family, sndBufBytes: buffer, rcvBufBytes: buffer, noDelay: true });
  try {
    const applied = o.windowBytes === null ? null : clampWindow(api, fd, o.windowBytes);
    const mss = o.mssBytes ? applyMss(api, fd, o.mssBytes) : null;
    // `onread` is honoured for fd-backed sockets too (Node sets the user buffer on the handle at construction).
    const opts: net.SocketConstructorOpts & { onread?: net.OnReadOpts } = { fd };
    if (o.onread) opts.onread = o.onread;
    return { socket: new net.Socket(opts), applied, mss };
  } catch (err) {
    api.closeFd(fd);
    throw err;
  }
}

/** What tuning a listener did, and how to undo it. */
export type ListenerTuning =
  | { applied: true; effective: NativeBuffers; window: AppliedWindow | null; restore: () => string | null }
  | { applied: false; reason: string; restore: () => string | null };

/** On Linux, SO_*BUF reads back twice what was set; to put a size back, ask for half. */
function requestFor(effectiveBytes: number): number {
  return process.platform === 'linux' ? Math.floor(effectiveBytes / 2) : effectiveBytes;
}

/** What a fresh socket's window clamp of 0 ("none") becomes at the handshake; a listening socket refuses 0 (EINVAL). */
const UNCLAMPED_BYTES = 65_535 * 2 ** 14;

/**
 * Set a listening server's window so connections accepted from now on start
 * with it (Linux copies the listener's TCP_WINDOW_CLAMP and buffers into each
 * accepted socket). `mode: 'window'` is a run's `--window` (advertised-window.ts);
 * `'buffers'` sets SO_SNDBUF/SO_RCVBUF only (the link proxy's small relay buffers).
 * `restore()` puts the previous sizes (and, on Linux, the autotuning state and
 * the clamp) back and returns a problem description or null.
 */
export function tuneListener(api: NativeApi, server: net.Server, windowBytes: number, mode: 'window' | 'buffers' = 'window'): ListenerTuning {
  const noop = (): null => null;
  const fd = socketFd(server);
  if (fd === null) return { applied: false, reason: 'this platform does not expose the listening socket to native code', restore: noop };
  let before: NativeBuffers;
  let clampBefore: number | null = null;
  let window: AppliedWindow | null = null;
  try {
    before = api.getBuffers(fd);
    if (mode === 'window' && api.windowClamp) {
      clampBefore = api.windowClamp.get(fd);
      const buffer = bufferBytesFor(api, windowBytes);
      api.setBuffers(fd, buffer, buffer);
      window = clampWindow(api, fd, windowBytes);
    } else {
      api.setBuffers(fd, windowBytes, windowBytes);
    }
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
      if (clampBefore !== null) api.windowClamp?.set(fd, clampBefore === 0 ? UNCLAMPED_BYTES : clampBefore);
      // A forced size is undone by a forced size: SO_*BUF alone would stay capped at rmem_max.
      if (window?.forced) api.windowClamp?.forceBuffers(fd, requestFor(before.sndBufBytes ?? 0), requestFor(before.rcvBufBytes ?? 0));
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
  return { applied: true, effective: api.getBuffers(fd), window, restore };
}

/** What setting a listener's MSS did for one run, and how to undo it. */
export interface ListenerMss {
  setup: MssSetup;
  restore: () => string | null;
}

/**
 * Set TCP_MAXSEG on a listening server for one run: every SYN-ACK it answers
 * from now on advertises `bytes`, and accepted sockets inherit the cap (Linux).
 * `restore()` sets 0, the OS's own MSS again (Longhaul never sets it otherwise).
 */
export function tuneListenerMss(api: NativeApi, server: net.Server, bytes: number): ListenerMss {
  const fd = socketFd(server);
  if (fd === null) {
    return {
      setup: { requestedBytes: bytes, applied: false, reason: 'this platform does not expose the listening socket to native code' },
      restore: () => null,
    };
  }
  const setup = applyMss(api, fd, bytes);
  let restored = !setup.applied;
  return {
    setup,
    restore: () => {
      if (restored) return null;
      restored = true;
      if (!server.listening || socketFd(server) !== fd) return null;
      try {
        api.maxSeg?.set(fd, 0);
        return null;
      } catch (err) {
        return `the listener's MSS was not given back to the OS: ${(err as Error).message}`;
      }
    },
  };
}
