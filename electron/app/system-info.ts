/** This PC, as the Start screen shows it: name, addresses, what this build can do. */
import os from 'node:os';
import type { Features, SystemInfo } from '../contract/api.js';
import { localAddresses } from '../util/net.js';
import { DEFAULT_PORT } from '../contract/api.js';
import { nativeSockets } from '../native/load-native.js';
import { SOFTWARE } from '../util/version.js';

/**
 * Features of this build. The window and the TCP figures need the native
 * socket addon (`npm ci` builds it where a C++ compiler exists); without it
 * runs use the OS default window and the UI says why.
 */
function buildFeatures(): Features {
  const native = nativeSockets();
  return {
    rttCwnd: native.api !== null,
    windowApplied: native.api !== null,
    nativeReason: native.reason,
  };
}

export function systemInfo(mode: SystemInfo['mode'], dataDir: string): SystemInfo {
  return { hostname: os.hostname(), addresses: localAddresses(), software: SOFTWARE, mode, dataDir, defaultPort: DEFAULT_PORT, features: buildFeatures() };
}
