/**
 * Which byte loop a data worker's streams use: the addon's native loop (one
 * thread per stream, plain send(2)/recv(2) on a dup of the socket) or Node's
 * own socket writes and `onread` reads. Native where it can, Node where it
 * cannot, and the reason recorded either way.
 */
import { nativeSockets } from './load-native.js';

/** `node` forces Node's byte loop (comparisons, troubleshooting); `native` (or unset) prefers the addon's. */
export const DATA_PATH_ENV = 'LONGHAUL_DATA_PATH';

export type StreamIo = 'native' | 'node';

export interface StreamIoChoice {
  io: StreamIo;
  /** Why Node's loop is used, or null when the native loop is. */
  reason: string | null;
}

export function chooseStreamIo(env: NodeJS.ProcessEnv = process.env): StreamIoChoice {
  const wanted = env[DATA_PATH_ENV];
  if (wanted === 'node') return { io: 'node', reason: `${DATA_PATH_ENV}=node` };
  const native = nativeSockets();
  if (!native.api) return { io: 'node', reason: native.reason };
  if (!native.api.pumpSupported) {
    return { io: 'node', reason: 'this build of the native addon has no byte loop (run npm run build:native)' };
  }
  return { io: 'native', reason: null };
}
