/**
 * Loads the socket addon once per process. Never throws: where the addon is
 * missing (no compiler at install time, unsupported OS, LONGHAUL_NO_NATIVE=1)
 * callers get `{ api: null, reason }` and fall back on the OS defaults, saying why.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { NativeApi } from './native-api.js';

/** Set to 1 to run as if the addon were not built (tests, troubleshooting). */
export const NO_NATIVE_ENV = 'LONGHAUL_NO_NATIVE';

export type NativeStatus = { api: NativeApi; reason: null } | { api: null; reason: string };

/** native/ at the package root: dist/electron/native/ → ../../../native. */
const NATIVE_DIR = fileURLToPath(new URL('../../../native/', import.meta.url));

let cached: NativeStatus | null = null;

function load(): NativeStatus {
  if (process.env[NO_NATIVE_ENV] === '1') {
    return { api: null, reason: `the native socket addon is disabled (${NO_NATIVE_ENV}=1)` };
  }
  const require = createRequire(import.meta.url);
  try {
    const gypBuild = require('node-gyp-build') as (dir: string) => unknown;
    const api = gypBuild(NATIVE_DIR) as NativeApi;
    if (typeof api.tcpInfo !== 'function' || typeof api.createTcpSocket !== 'function') {
      return { api: null, reason: 'the native socket addon loaded but lacks expected functions (stale build? run npm run build:native)' };
    }
    return { api, reason: null };
  } catch (err) {
    const first = String((err as Error).message ?? err).split('\n')[0];
    return { api: null, reason: `the native socket addon is not built (${first}); run npm run build:native (needs a C++ compiler)` };
  }
}

/** The addon, or null and the reason it is unavailable. Cached for the process. */
export function nativeSockets(): NativeStatus {
  cached ??= load();
  return cached;
}

/** Forget the cached load (tests toggle the env switch). */
export function resetNativeForTests(): void {
  cached = null;
}
