/**
 * Test trust: two fresh identities (a controller and a responder) already
 * paired with each other through in-memory peer stores, so engine tests run
 * over the real TLS 1.3 control channel with pinned fingerprints.
 */
import type { ControllerSecurity } from '../../electron/security/controller-security.js';
import { createIdentity, type Identity } from '../../electron/security/identity.js';
import { PeerStore, type PeerRecord } from '../../electron/security/peer-store.js';
import { ResponderSecurity, type ResponderSecurityOptions } from '../../electron/security/responder-security.js';
import type { LoadedTrust } from '../../electron/security/load-trust.js';

interface PairedTrust {
  controller: ControllerSecurity;
  responder: ResponderSecurity;
}

function record(name: string, id: Identity): PeerRecord {
  const now = new Date().toISOString();
  return { name, fingerprint: id.fingerprint, address: '127.0.0.1', pairedAt: now, lastSeen: now };
}

/** A controller and a responder that trust each other (and nobody else). */
export async function pairedTrust(extra: Partial<ResponderSecurityOptions> = {}): Promise<PairedTrust> {
  const [c, r] = await Promise.all([createIdentity('test-controller'), createIdentity('test-responder')]);
  return {
    controller: { identity: c, peers: PeerStore.memory([record('test-responder', r)]) },
    responder: new ResponderSecurity({ identity: r, peers: PeerStore.memory([record('test-controller', c)]), ...extra }),
  };
}

/** A controller nobody has paired with. */
export async function strangerTrust(): Promise<ControllerSecurity> {
  return { identity: await createIdentity('stranger'), peers: PeerStore.memory() };
}

/**
 * A fresh responder identity paired with an existing controller (e.g. the app
 * backend's or the CLI's own installation): each is added to the other's peers.
 */
export async function responderPairedWith(controller: ControllerSecurity, extra: Partial<ResponderSecurityOptions> = {}): Promise<ResponderSecurity> {
  const r = await createIdentity('test-responder');
  controller.peers.add('test-responder', r.fingerprint, '127.0.0.1');
  return new ResponderSecurity({ identity: r, peers: PeerStore.memory([record('test-controller', controller.identity)]), ...extra });
}

/**
 * For code that loads its own trust (the app's ResponderHost): a responder installation's
 * trust loader and a controller already paired with it.
 */
export async function pairedInstallation(dir: string): Promise<{ controller: ControllerSecurity; responderTrust: () => Promise<LoadedTrust> }> {
  const [c, r] = await Promise.all([createIdentity('test-controller'), createIdentity('test-responder')]);
  const loaded: LoadedTrust = { identity: r, peers: PeerStore.memory([record('test-controller', c)]), dir };
  return {
    controller: { identity: c, peers: PeerStore.memory([record('test-responder', r)]) },
    responderTrust: async () => loaded,
  };
}
