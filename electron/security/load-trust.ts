/** Open this installation's identity and peers from its trust folder (created and protected on first use). */
import path from 'node:path';
import { currentHost, type HostPaths, trustDir } from '../util/app-paths.js';
import type { ControllerSecurity } from './controller-security.js';
import { loadOrCreateIdentity, type Identity } from './identity.js';
import { PeerStore } from './peer-store.js';
import { protectTrustDir, type DirProtection } from './trust-dir.js';

export interface LoadedTrust extends ControllerSecurity {
  identity: Identity;
  peers: PeerStore;
  dir: string;
  /** How the folder is protected; absent for trust that lives in memory (tests). Show `warning` to the user. */
  protection?: DirProtection;
}

export async function loadTrust(dir?: string, host: HostPaths = currentHost()): Promise<LoadedTrust> {
  const folder = dir ?? trustDir(host);
  // Protect the folder before the key is written into it, so the key file is born with the folder's ACL.
  const protection = await protectTrustDir(folder, host);
  const identity = await loadOrCreateIdentity(folder);
  return { identity, peers: PeerStore.open(path.join(folder, 'peers.json')), dir: folder, protection };
}
