/**
 * Where a TCP run's data connections arrive on the responder, set up before `params-ok`: the shared
 * listening socket with the run's window and MSS set on it (accepted connections inherit them;
 * undone once they are in), or, where the native addon owns data connections (Windows), a listener
 * of the run's own (windows-owned-listener.ts). A UDP run has neither (udp-session.ts).
 */
import type { MssSetup } from '../../native/mss-setup.js';
import type { ListenerMss, ListenerTuning } from '../../native/tuned-socket.js';
import { nativeSockets } from '../../native/load-native.js';
import { dataPath } from '../../native/data-path.js';
import { LonghaulError, describeError } from '../../util/errors.js';
import { WindowsOwnedListener } from '../data-plane/windows-owned-listener.js';
import type { RunParams } from './params.js';

export interface RunListenerHooks {
  /** Set the shared listening socket's buffers to the requested window (see ResponderSessionOptions). */
  tuneListener?: (windowBytes: number) => ListenerTuning;
  /** Set the shared listener's MSS (TCP_MAXSEG) for one run's data connections. */
  tuneListenerMss?: (mssBytes: number) => ListenerMss;
}

export interface RunListener {
  /** The run's own listener (owned connections), or null: the shared port. */
  owned: WindowsOwnedListener | null;
  tuning: ListenerTuning | null;
  mss: ListenerMss | null;
  /** How setting the MSS went, for the workers (null: none asked). */
  mssSetup: MssSetup | null;
}

/** Set up where this run's data connections arrive; throws LH_ERR_DATA_STREAM when the run's own listener cannot open. */
export function openRunListener(p: RunParams, streams: number, addresses: { local: string; peer: string }, hooks: RunListenerHooks): RunListener {
  const native = nativeSockets();
  if (native.api && dataPath().conn.mode === 'owned') {
    let owned: WindowsOwnedListener;
    try {
      owned = WindowsOwnedListener.open(native.api, {
        bindAddress: addresses.local,
        peerAddress: addresses.peer,
        windowBytes: p.windowBytes,
        mssBytes: p.mssBytes ?? null,
        maxPending: streams + 8,
      });
    } catch (err) {
      throw new LonghaulError('LH_ERR_DATA_STREAM', `cannot listen for this run's data connections: ${describeError(err).message}`);
    }
    const tuning: ListenerTuning | null =
      p.windowBytes === null
        ? null
        : {
            applied: true,
            effective: owned.effective ?? { sndBufBytes: null, rcvBufBytes: null, sndLocked: null, rcvLocked: null },
            window: owned.window,
            restore: () => null,
          };
    return { owned, tuning, mss: null, mssSetup: owned.mss };
  }
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
  return { owned: null, tuning, mss, mssSetup };
}
