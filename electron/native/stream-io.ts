/**
 * Which byte loop a data worker's streams use: the addon's native loop (one
 * thread per stream, plain send(2)/recv(2) on a dup of the socket) or Node's
 * own socket writes and `onread` reads. Native where it can, Node where it
 * cannot, and the reason recorded either way.
 */
import { nativeSockets } from './load-native.js';
import type { NativeApi } from './native-api.js';

/** `node` forces Node's byte loop (comparisons, troubleshooting); `native` (or unset) prefers the addon's. */
export const DATA_PATH_ENV = 'LONGHAUL_DATA_PATH';

export type StreamIo = 'native' | 'node';

export interface StreamIoChoice {
  io: StreamIo;
  /** Why Node's loop is used, or null when the native loop is. */
  reason: string | null;
}

/** `native`: the addon the streams will run with and why it is missing (default: this process's). */
export function chooseStreamIo(
  env: NodeJS.ProcessEnv = process.env,
  native: { api: NativeApi | null; reason: string | null } = nativeSockets(),
): StreamIoChoice {
  const wanted = env[DATA_PATH_ENV];
  if (wanted === 'node') return { io: 'node', reason: `${DATA_PATH_ENV}=node` };
  if (!native.api) return { io: 'node', reason: native.reason ?? 'the native socket addon is not available' };
  if (!native.api.pumpSupported) {
    return { io: 'node', reason: 'this build of the native addon has no byte loop (run npm run build:native)' };
  }
  return { io: 'native', reason: null };
}

/**
 * Which loop sends a UDP stream's datagrams: the addon's (native/src/udp_send.cc: its own thread,
 * sendmmsg batches on Linux) or Node's dgram socket; the same switch as the TCP loops', and Node
 * where the addon has no UDP sender (Windows, older builds). iperf3's datagrams always go through
 * Node's (the native loop writes Longhaul's header only).
 */
export function chooseUdpSendIo(
  iperf3: boolean,
  env: NodeJS.ProcessEnv = process.env,
  native: { api: NativeApi | null; reason: string | null } = nativeSockets(),
): StreamIoChoice & { api: NativeApi | null } {
  const wanted = env[DATA_PATH_ENV];
  if (wanted === 'node') return { io: 'node', reason: `${DATA_PATH_ENV}=node`, api: null };
  if (iperf3) return { io: 'node', reason: "iperf3's datagrams: the native sender writes Longhaul's header only", api: null };
  if (!native.api) return { io: 'node', reason: native.reason ?? 'the native socket addon is not available', api: null };
  if (!native.api.udpSendSupported)
    return { io: 'node', reason: 'this build of the native addon has no UDP sender (Windows, or run npm run build:native)', api: null };
  return { io: 'native', reason: null, api: native.api };
}
