/**
 * Strangers spread over many addresses must not keep a new controller out.
 * Each attacker connection sends the first bytes of a TLS ClientHello and
 * stalls, and comes back 5 ms after the responder drops it. When the pool
 * evicted the oldest connection that had not been read yet, every attacker
 * arrival evicted the controller accepted just before it: `pair` failed 3 of
 * 3 times under 5 addresses × 8 or 40 addresses × 1. Now the pool evicts from
 * the addresses holding the most (and with the most evicted recently), so the
 * controller from 127.0.0.1 (one connection, nothing evicted) is never chosen.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';
import { Responder } from '../../electron/engine/session/responder.js';
import { createIdentity } from '../../electron/security/identity.js';
import { pairWith } from '../../electron/security/pair-client.js';
import { newPairingCode } from '../../electron/security/pairing-code.js';
import { PeerStore } from '../../electron/security/peer-store.js';
import { ResponderSecurity } from '../../electron/security/responder-security.js';
import { within } from '../helpers/net.js';
import { holdPartialHellos, strangerAddresses } from '../helpers/stranger-flood.js';
import { strangerTrust } from '../helpers/trust.js';

/** Where the paired controller was last seen: not 127.0.0.1, so its run there has no peer reserve (it moved, e.g. a new DHCP lease). */
const OLD_ADDRESS = '127.0.0.250';
const ATTEMPTS = 3;

async function underAttack(addresses: number, perAddress: number, fresh = false): Promise<void> {
  const [controllerId, responderId] = await Promise.all([createIdentity('moved-controller'), createIdentity('responder')]);
  const now = new Date().toISOString();
  const code = newPairingCode();
  const security = new ResponderSecurity({
    identity: responderId,
    peers: PeerStore.memory([{ name: 'moved-controller', fingerprint: controllerId.fingerprint, address: OLD_ADDRESS, pairedAt: now, lastSeen: now }]),
    pairingCode: code,
  });
  const controller = {
    identity: controllerId,
    peers: PeerStore.memory([{ name: 'responder', fingerprint: responderId.fingerprint, address: '127.0.0.1', pairedAt: now, lastSeen: now }]),
  };
  const responder = new Responder({ host: '127.0.0.1', port: 0, security });
  const { port } = await responder.listen();
  const flood = holdPartialHellos(port, strangerAddresses(addresses), perAddress, 5, fresh);
  try {
    await new Promise((r) => setTimeout(r, 1000)); // the pool is full and churning
    const failures: string[] = [];
    for (let i = 0; i < ATTEMPTS; i++) {
      // A new PC pairs from 127.0.0.1; forgotten again so 127.0.0.1 stays a stranger's address for the next attempt and the run.
      security.openPairing(code);
      const pairing = await strangerTrust();
      try {
        await within(pairWith({ host: '127.0.0.1', port, code, security: pairing, timeoutMs: 10_000 }), 15_000, 'pairing');
      } catch (err) {
        failures.push(`pair ${i + 1}: ${(err as Error).message}`);
      }
      security.peers.forget(pairing.identity.fingerprint);
    }
    const run = await within(
      startRun({ host: '127.0.0.1', port, security: controller, params: { ...DEFAULT_PARAMS, bytes: 4_000_000, seconds: null } }).result,
      20_000,
      'the moved controller’s run',
    );
    if (run.partial) failures.push(`run: ${run.errors.map((e) => `${e.code}: ${e.message}`).join('; ') || run.partialReason}`);
    const dropped = flood.dropped();
    process.stdout.write(
      `# ${addresses} × ${perAddress}${fresh ? ' (a fresh address each time)' : ''}: ${ATTEMPTS - failures.filter((f) => f.startsWith('pair')).length}/${ATTEMPTS} pairings, run ${run.partial ? 'failed' : 'ok'}; ${dropped} attacker connections dropped\n`,
    );
    assert.deepEqual(failures, [], 'every pairing and the run got through');
    assert.ok(dropped > addresses * perAddress, `the attackers were being dropped and came back meanwhile (${dropped})`);
  } finally {
    flood.stop();
    await responder.close();
  }
}

describe('strangers spread over many addresses', { timeout: 120_000 }, () => {
  it(`5 addresses × 8 partial hellos, back 5 ms after each drop: ${ATTEMPTS} pairings from 127.0.0.1 and a moved controller’s run succeed`, async () => {
    await underAttack(5, 8);
  });

  it(`40 addresses × 1 partial hello, back 5 ms after each drop: ${ATTEMPTS} pairings from 127.0.0.1 and a moved controller’s run succeed`, async () => {
    await underAttack(40, 1);
  });

  it(`40 partial hellos at once, each back 5 ms after its drop from an address never used before: the same`, async () => {
    // No strikes to go by: the controller's whole ClientHello, then its finished handshake, rank it above stalled fragments.
    await underAttack(40, 1, true);
  });
});
