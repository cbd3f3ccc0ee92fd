/**
 * The Partner step's list of paired PCs: the peer store as the UI shows it
 * (most recently seen first), and Forget by the exact fingerprint the list
 * showed, so a name shared by two PCs can never forget the wrong one.
 */
import type { PairedPeerInfo } from '../contract/api.js';
import type { PeerStore } from '../security/peer-store.js';

/** Every paired PC, most recently seen first (ISO times sort as text). */
export function pairedPeers(peers: PeerStore): PairedPeerInfo[] {
  return peers
    .list()
    .map(({ name, fingerprint, address, pairedAt, lastSeen }) => ({ name, fingerprint, address, pairedAt, lastSeen }))
    .sort((a, b) => b.lastSeen.localeCompare(a.lastSeen) || a.name.localeCompare(b.name));
}

/**
 * Forget the PC with this fingerprint and return the list left. Forgetting one that is not
 * (or no longer) on the list changes nothing: the user's wish, "not paired", already holds.
 */
export function forgetPeer(peers: PeerStore, fingerprint: string): PairedPeerInfo[] {
  // By exact fingerprint only: PeerStore.forget also matches names and prefixes, which the list never sends.
  if (peers.find(fingerprint)) peers.forget(fingerprint);
  return pairedPeers(peers);
}
