/**
 * The environment switches of the data path, read here and nowhere else (data-path.ts turns them
 * into this PC's choices; docs/data-path.md lists them). Each forces one choice for comparisons,
 * tests and troubleshooting; unset, or holding anything else, the PC's default applies. (The other
 * LONGHAUL_ variables are not the data path: the data and trust folders in util/app-paths.ts, the
 * pairing code in cli/commands, the memory log in util/memory-log.ts, a test hook.)
 */

/** `node`: Node's byte loop and sockets instead of the addon's. */
export const DATA_PATH_ENV = 'LONGHAUL_DATA_PATH';
/** `owned` (alias `windows`: Windows' data path on any OS) or `node`: who owns the data connections. */
export const DATA_CONN_ENV = 'LONGHAUL_DATA_CONN';
/** `own`: Longhaul's own pacing even where the kernel paces (tests of that loop on Linux). */
export const PACING_ENV = 'LONGHAUL_PACING';
/** `unbounded`: no TCP_NOTSENT_LOWAT on the senders. */
export const SEND_BACKLOG_ENV = 'LONGHAUL_SEND_BACKLOG';
/** `js` or `native`: the link emulator's byte mover. */
export const RELAY_ENV = 'LONGHAUL_RELAY';
/** `1`: as if the addon were not built. */
export const NO_NATIVE_ENV = 'LONGHAUL_NO_NATIVE';

export interface Switches {
  nodeLoop: boolean;
  conn: 'owned' | 'node' | null;
  ownPacing: boolean;
  unboundedBacklog: boolean;
  relay: 'js' | 'native' | null;
  noNative: boolean;
}

export function readSwitches(env: NodeJS.ProcessEnv = process.env): Switches {
  const conn = env[DATA_CONN_ENV] === 'windows' ? 'owned' : env[DATA_CONN_ENV];
  const relay = env[RELAY_ENV];
  return {
    nodeLoop: env[DATA_PATH_ENV] === 'node',
    conn: conn === 'owned' || conn === 'node' ? conn : null,
    ownPacing: env[PACING_ENV] === 'own',
    unboundedBacklog: env[SEND_BACKLOG_ENV] === 'unbounded',
    relay: relay === 'js' || relay === 'native' ? relay : null,
    noNative: env[NO_NATIVE_ENV] === '1',
  };
}
