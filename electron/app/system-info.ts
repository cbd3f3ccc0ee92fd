/** This PC, as the Start screen shows it: name, addresses, what this build can do. */
import os from 'node:os';
import type { Features, SystemInfo } from '../contract/api.js';
import { localAddresses } from '../cli/commands/listen.js';
import { DEFAULT_PORT } from '../engine/responder.js';
import { SOFTWARE } from '../util/version.js';
import { availableFormats } from './exporters.js';

/** Features of this build; the pending ones flip to true as their issues land. */
export function buildFeatures(): Features {
  return {
    exportFormats: availableFormats(),
    linkEmulator: false,
    diagnosis: false,
    rttCwnd: false,
    windowApplied: false,
    discovery: true,
  };
}

export function systemInfo(mode: SystemInfo['mode'], dataDir: string): SystemInfo {
  return { hostname: os.hostname(), addresses: localAddresses(), software: SOFTWARE, mode, dataDir, defaultPort: DEFAULT_PORT, features: buildFeatures() };
}
