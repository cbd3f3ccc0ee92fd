/**
 * Which byte mover the link emulator uses on this PC (byte-mover.ts): the data path's choice
 * (native/data-path.ts: the addon's relay thread where it exists and Node exposes the sockets'
 * descriptors, Linux and macOS; Node's sockets elsewhere), with the addon it needs and the reason
 * recorded in the result.
 */
import { dataPath } from '../native/data-path.js';
import { nativeSockets } from '../native/load-native.js';
import type { NativeApi } from '../native/native-api.js';
import type { MoverKind } from './byte-mover.js';

export interface RelayChoice {
  kind: MoverKind;
  /** Why the native relay is not used (null when it is). */
  reason: string | null;
  /** The addon when kind is native. */
  api: NativeApi | null;
}

export function chooseRelay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): RelayChoice {
  const { kind, reason } = dataPath(env, platform).relay;
  return { kind, reason, api: kind === 'native' ? nativeSockets().api : null };
}
