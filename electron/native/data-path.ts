/**
 * How bytes move on this PC, as one value: resolved from the OS, the addon and the switches
 * (switches.ts), each choice with its reason, and asked for by every part that moves bytes (the data
 * workers, the responder's listener, the iperf3 server, the link emulator). `longhaul doctor` prints
 * it. Within a process the value changes only when a switch does (tests flip them between runs).
 *
 *   tcpIo       the TCP byte loop: the addon's thread per stream, or Node's socket reads and writes
 *   udpSendIo   Longhaul's own datagrams: the addon's sender thread (sendmmsg), or Node's dgram
 *   conn        who owns data connections: Node's sockets (window set on the descriptor before the
 *               SYN), or the addon (Windows: Node exposes no SOCKET there)
 *   pacing      --bitrate: the kernel's per-socket cap first, or always Longhaul's own
 *   sendBacklog the senders' unsent backlog bounded by TCP_NOTSENT_LOWAT, or not
 *   relay       the link emulator's mover: the addon's relay thread, or JavaScript
 */
import { nativeSockets } from './load-native.js';
import type { NativeApi } from './native-api.js';
import { DATA_CONN_ENV, DATA_PATH_ENV, NO_NATIVE_ENV, PACING_ENV, readSwitches, RELAY_ENV, SEND_BACKLOG_ENV, type Switches } from './switches.js';

export type StreamIo = 'native' | 'node';

export interface StreamIoChoice {
  io: StreamIo;
  /** Why Node's loop is used, or null when the native loop is. */
  reason: string | null;
}

export interface DataConnChoice {
  mode: 'owned' | 'node';
  /** Why an owned mode was wanted but not possible (null otherwise). */
  reason: string | null;
  /**
   * Owned mode: how an accepted socket reaches the data worker that moves its bytes. `duplicate`:
   * the addon duplicates it into the worker's process (WSADuplicateSocketW; Windows, where Node
   * cannot carry a native SOCKET as a handle). `node-handle`: Node wraps the descriptor and passes
   * it as it passes any handle. Null in Node mode (Node's own sockets travel as Node's handles).
   */
  handover: 'duplicate' | 'node-handle' | null;
}

export interface DataPath {
  platform: NodeJS.Platform;
  /** The addon: loaded, or why not (every native choice below falls back without it). */
  addon: { loaded: boolean; reason: string | null };
  tcpIo: StreamIoChoice;
  udpSendIo: StreamIoChoice;
  conn: DataConnChoice;
  /** `kernel-first`: the kernel's per-socket cap, Longhaul's own where a socket refuses it (pacing.ts); `own`: Longhaul's token bucket for every stream. */
  pacing: { mode: 'kernel-first' | 'own'; reason: string | null };
  sendBacklog: { bounded: boolean; reason: string | null };
  relay: { kind: 'native' | 'js'; reason: string | null };
}

type Native = { api: NativeApi | null; reason: string | null };

/** The data path for these switches, this addon and this OS (pure: tests pass their own). */
export function resolveDataPath(s: Switches, native: Native, platform: NodeJS.Platform): DataPath {
  const api = native.api;
  const missing = native.reason ?? 'the native socket addon is not available';
  return {
    platform,
    addon: { loaded: api !== null, reason: api ? null : missing },
    tcpIo: s.nodeLoop
      ? { io: 'node', reason: `${DATA_PATH_ENV}=node` }
      : !api
        ? { io: 'node', reason: missing }
        : !api.pumpSupported
          ? { io: 'node', reason: 'this build of the native addon has no byte loop (run npm run build:native)' }
          : { io: 'native', reason: null },
    udpSendIo: s.nodeLoop
      ? { io: 'node', reason: `${DATA_PATH_ENV}=node` }
      : !api
        ? { io: 'node', reason: missing }
        : !api.udpSendSupported
          ? {
              io: 'node',
              reason:
                platform === 'win32'
                  ? 'the native addon has no UDP sender on Windows'
                  : 'this build of the native addon has no UDP sender (run npm run build:native)',
            }
          : { io: 'native', reason: null },
    conn: connOf(s, api, platform),
    pacing: pacingOf(s, api, platform),
    sendBacklog: s.unboundedBacklog
      ? { bounded: false, reason: `${SEND_BACKLOG_ENV}=unbounded` }
      : !api?.setNotSentLowat
        ? { bounded: false, reason: api ? 'this OS has no TCP_NOTSENT_LOWAT' : missing }
        : { bounded: true, reason: null },
    relay: relayOf(s, api, missing, platform),
  };
}

/** Who owns the data connections: the platform's default (the addon on Windows), or the switch's. */
function connOf(s: Switches, api: NativeApi | null, platform: NodeJS.Platform): DataConnChoice {
  const wanted = s.conn ?? (platform === 'win32' ? 'owned' : 'node');
  const node = (reason: string | null): DataConnChoice => ({ mode: 'node', reason, handover: null });
  if (wanted === 'node') return node(null);
  if (s.nodeLoop) return node(`${DATA_PATH_ENV}=node asks for Node's byte loop, which needs Node's sockets`);
  if (!api) return node('the native socket addon is not loaded');
  if (!api.owned || !api.pumpSupported) return node('this build of the native addon cannot own data connections (rebuild it: npm run build:native)');
  return { mode: 'owned', reason: null, handover: platform === 'win32' ? 'duplicate' : 'node-handle' };
}

/** --bitrate: the kernel's per-socket cap where it can be asked (Linux, with the addon), else Longhaul's own. */
function pacingOf(s: Switches, api: NativeApi | null, platform: NodeJS.Platform): DataPath['pacing'] {
  if (s.ownPacing) return { mode: 'own', reason: `${PACING_ENV}=own asked for Longhaul's own pacing` };
  if (!api) return { mode: 'own', reason: 'the native addon is not loaded, so the kernel cannot be asked to pace' };
  if (api.maxPacingRate) return { mode: 'kernel-first', reason: null };
  if (platform === 'linux') return { mode: 'own', reason: 'this build of the native addon cannot set SO_MAX_PACING_RATE' };
  const name = platform === 'win32' ? 'Windows' : platform === 'darwin' ? 'macOS' : platform;
  return { mode: 'own', reason: `${name} has no per-socket pacing cap (SO_MAX_PACING_RATE is Linux's)` };
}

function relayOf(s: Switches, api: NativeApi | null, missing: string, platform: NodeJS.Platform): DataPath['relay'] {
  if (s.relay === 'js') return { kind: 'js', reason: `${RELAY_ENV}=js asks for the JavaScript relay` };
  if (platform === 'win32') return { kind: 'js', reason: 'Node exposes no SOCKET of its sockets on Windows, so the relay moves bytes in JavaScript there' };
  if (!api) return { kind: 'js', reason: missing };
  if (!api.startRelay) return { kind: 'js', reason: 'this build of the native addon has no relay thread (rebuild it: npm run build:native)' };
  return { kind: 'native', reason: null };
}

let cached: { key: string; path: DataPath } | null = null;

/** This process's data path (the switches as they are now in `env`). */
export function dataPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): DataPath {
  const s = readSwitches(env);
  const key = `${platform}\0${JSON.stringify(s)}`;
  if (cached?.key !== key) cached = { key, path: resolveDataPath(s, nativeSockets(), platform) };
  return cached.path;
}

/** The data path with a given addon (a worker handed one by a test), the switches as they are now. */
export function dataPathFor(native: Native): DataPath {
  return resolveDataPath(readSwitches(), native, process.platform);
}

/** The switches a user can set, for `longhaul doctor`'s list. */
export const DATA_PATH_SWITCHES = [DATA_PATH_ENV, DATA_CONN_ENV, PACING_ENV, SEND_BACKLOG_ENV, RELAY_ENV, NO_NATIVE_ENV] as const;
