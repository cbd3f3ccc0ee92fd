/**
 * Which byte mover the link emulator uses on this PC (byte-mover.ts), one
 * rule: the addon's relay thread where it exists and Node exposes the
 * sockets' descriptors (Linux, macOS), Node's sockets elsewhere (Windows,
 * or no addon), with the reason recorded in the result.
 */
import { nativeSockets } from '../native/load-native.js';
import type { NativeApi } from '../native/native-api.js';
import type { MoverKind } from './byte-mover.js';

/** `js` or `native` forces a mover (tests, troubleshooting, benchmarks); anything else: the default. */
const RELAY_ENV = 'LONGHAUL_RELAY';

export interface RelayChoice {
  kind: MoverKind;
  /** Why the native relay is not used (null when it is). */
  reason: string | null;
  /** The addon when kind is native. */
  api: NativeApi | null;
}

let cached: RelayChoice | null = null;

export function chooseRelay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): RelayChoice {
  if (env === process.env && platform === process.platform && cached) return cached;
  const choice = decide(env, platform);
  if (env === process.env && platform === process.platform) cached = choice;
  return choice;
}

function decide(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): RelayChoice {
  if (env[RELAY_ENV] === 'js') return { kind: 'js', reason: `${RELAY_ENV}=js asks for the JavaScript relay`, api: null };
  if (platform === 'win32')
    return { kind: 'js', reason: 'Node exposes no SOCKET of its sockets on Windows, so the relay moves bytes in JavaScript there', api: null };
  const status = nativeSockets();
  if (!status.api) return { kind: 'js', reason: status.reason, api: null };
  if (!status.api.startRelay) return { kind: 'js', reason: 'this build of the native addon has no relay thread (rebuild it: npm run build:native)', api: null };
  return { kind: 'native', reason: null, api: status.api };
}
