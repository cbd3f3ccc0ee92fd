/**
 * Who owns a run's data connections on this PC: Node (`'node'`: net.Socket,
 * with the addon's window set on the descriptor before the handshake where
 * Node exposes one, i.e. Linux and macOS) or the addon itself (`'owned'`:
 * native/src/owned_conn.cc connects, listens and accepts, and the native byte
 * loop moves the bytes). Windows is `'owned'`: Node there neither exposes a
 * socket's SOCKET nor adopts one, so only an addon-owned socket can have its
 * window set before the SYN. One rule, used by both ends of a run.
 */
import type { NativeApi } from './native-api.js';

/**
 * `owned` (alias `windows`: Windows' data path on any OS) or `node` forces a mode (tests,
 * troubleshooting); anything else: the platform's default.
 */
export const DATA_CONN_ENV = 'LONGHAUL_DATA_CONN';

type DataConnMode = 'owned' | 'node';

export interface DataConnChoice {
  mode: DataConnMode;
  /** Why an owned mode was wanted but not possible (null otherwise). */
  reason: string | null;
}

/** The data-connection mode for this process. */
export function chooseDataConn(api: NativeApi | null, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): DataConnChoice {
  const forced = env[DATA_CONN_ENV] === 'windows' ? 'owned' : env[DATA_CONN_ENV];
  const wanted = forced === 'owned' || forced === 'node' ? forced : platform === 'win32' ? 'owned' : 'node';
  if (wanted === 'node') return { mode: 'node', reason: null };
  if (env.LONGHAUL_DATA_PATH === 'node') return { mode: 'node', reason: "LONGHAUL_DATA_PATH=node asks for Node's byte loop, which needs Node's sockets" };
  if (!api) return { mode: 'node', reason: 'the native socket addon is not loaded' };
  if (!api.owned || !api.pumpSupported)
    return { mode: 'node', reason: 'this build of the native addon cannot own data connections (rebuild it: npm run build:native)' };
  return { mode: 'owned', reason: null };
}
