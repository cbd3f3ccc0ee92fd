/**
 * Where a TCP run's data connections arrive on the responder, set up before `params-ok`: the shared
 * listening socket with the run's window and MSS set on it (accepted connections inherit them;
 * undone once they are in), or, where the native addon owns data connections (Windows), a listener
 * of the run's own (windows-owned-listener.ts). A UDP run has neither (`NO_LISTENER`). Either way the
 * session sees one thing: connections as IncomingData (session-channel.ts), and one close.
 */
import type net from 'node:net';
import type { AppliedWindow } from '../../native/advertised-window.js';
import type { MssSetup } from '../../native/mss-setup.js';
import type { ListenerMss, ListenerTuning } from '../../native/tuned-socket.js';
import { nativeSockets } from '../../native/load-native.js';
import type { NativeApi } from '../../native/native-api.js';
import { dataPath } from '../../native/data-path.js';
import { rawHandle } from '../../native/node-handle.js';
import { LonghaulError, describeError } from '../../util/errors.js';
import { WindowsOwnedListener, type OwnedConnection } from '../data-plane/windows-owned-listener.js';
import type { RunParams } from '../../protocol/run-params.js';
import type { IncomingData } from './session-channel.js';

export interface RunListenerHooks {
  /** Set the shared listening socket's buffers to the requested window (see ResponderSessionOptions). */
  tuneListener?: (windowBytes: number) => ListenerTuning;
  /** Set the shared listener's MSS (TCP_MAXSEG) for one run's data connections. */
  tuneListenerMss?: (mssBytes: number) => ListenerMss;
}

/** How setting the listener's window went, as the data workers are told (DataPlaneOptions.listenerWindow). */
interface ListenerWindow {
  applied: boolean;
  reason: string | null;
  window: AppliedWindow | null;
}

export interface RunListener {
  /** The port of the run's own listener; null: the data connections come to the shared control port. */
  readonly ownPort: number | null;
  /** How the window was set where the connections arrive; undefined: no window asked. */
  readonly window: ListenerWindow | undefined;
  /** How setting the MSS went, for the workers (null: none asked). */
  readonly mssSetup: MssSetup | null;
  /** Connections to the run's own listener (header read, address checked there), and the ones it turned away. */
  listen(take: (c: IncomingData) => void, rejected: (peer: string, reason: string) => void): void;
  /** Give the shared listener its own buffers back and close the run's own listener; idempotent. Returns what could not be undone. */
  close(): string[];
}

/** A UDP run: no data connections. */
export const NO_LISTENER: RunListener = { ownPort: null, window: undefined, mssSetup: null, listen: () => {}, close: () => [] };

/** A data connection on the shared control port, the header read (responder.ts): a Node socket whose handle goes to the worker. */
export function sharedPortConnection(socket: net.Socket, header: Buffer): IncomingData {
  return {
    header,
    peer: `${socket.remoteAddress}:${socket.remotePort}`,
    async handOver(plane, id) {
      try {
        await plane.adopt(id, rawHandle(socket));
      } finally {
        socket.destroy(); // the worker holds its own duplicate of the descriptor now
      }
    },
    refuse: () => socket.destroy(),
  };
}

/** A data connection the addon accepted on the run's own listener: a descriptor the worker takes. */
function ownedConnection(api: NativeApi, c: OwnedConnection): IncomingData {
  return {
    header: c.header,
    peer: `${c.address}:${c.port}`,
    handOver: (plane, id) => plane.adoptOwned(id, c.fd),
    refuse: () => api.closeFd(c.fd),
  };
}

/** Set up where this run's data connections arrive; throws LH_ERR_DATA_STREAM when the run's own listener cannot open. */
export function openRunListener(p: RunParams, streams: number, addresses: { local: string; peer: string }, hooks: RunListenerHooks): RunListener {
  const api = nativeSockets().api;
  if (api && dataPath().conn.mode === 'owned') return ownListener(api, p, streams, addresses);
  return sharedListener(p, hooks);
}

function ownListener(api: NativeApi, p: RunParams, streams: number, addresses: { local: string; peer: string }): RunListener {
  let owned: WindowsOwnedListener;
  try {
    owned = WindowsOwnedListener.open(api, {
      bindAddress: addresses.local,
      peerAddress: addresses.peer,
      windowBytes: p.windowBytes,
      mssBytes: p.mssBytes ?? null,
      maxPending: streams + 8,
    });
  } catch (err) {
    throw new LonghaulError('LH_ERR_DATA_STREAM', `cannot listen for this run's data connections: ${describeError(err).message}`);
  }
  let closed = false;
  return {
    ownPort: owned.port,
    window: p.windowBytes === null ? undefined : { applied: true, reason: null, window: owned.window },
    mssSetup: owned.mss,
    listen(take, rejected) {
      owned.on('connection', (c) => take(ownedConnection(api, c)));
      owned.on('rejected', rejected);
    },
    close() {
      if (!closed) void owned.close();
      closed = true;
      return [];
    },
  };
}

function sharedListener(p: RunParams, hooks: RunListenerHooks): RunListener {
  const tuning =
    p.windowBytes === null
      ? null
      : (hooks.tuneListener?.(p.windowBytes) ?? {
          applied: false as const,
          reason: "this responder cannot set its listening socket's buffers",
          restore: () => null,
        });
  const mss = p.mssBytes ? (hooks.tuneListenerMss?.(p.mssBytes) ?? null) : null;
  const mssSetup = p.mssBytes
    ? (mss?.setup ?? { requestedBytes: p.mssBytes, applied: false, reason: "this responder cannot set its listening socket's MSS" })
    : null;
  let closed = false;
  return {
    ownPort: null,
    window: tuning ? { applied: tuning.applied, reason: tuning.applied ? null : tuning.reason, window: tuning.applied ? tuning.window : null } : undefined,
    mssSetup,
    listen: () => {},
    close() {
      if (closed) return [];
      closed = true;
      return [tuning?.restore() ?? null, mss?.restore() ?? null].filter((x): x is string => x !== null);
    },
  };
}
