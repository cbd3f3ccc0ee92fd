/** Open this installation's identity and peers from its trust folder (created on first use). */
import path from 'node:path';
import type { ControllerSecurity } from './controller-security.js';
import { loadOrCreateIdentity, type Identity } from './identity.js';
import { PeerStore } from './peer-store.js';
import { trustDir } from './trust-dir.js';

export interface LoadedTrust extends ControllerSecurity {
  identity: Identity;
  peers: PeerStore;
  dir: string;
}

export async function loadTrust(dir = trustDir()): Promise<LoadedTrust> {
  const identity = await loadOrCreateIdentity(dir);
  return { identity, peers: PeerStore.open(path.join(dir, 'peers.json')), dir };
}
