/**
 * What the responder tells its operator about controllers it turned away, and
 * the pairing code's expiry. Expiry runs on an injected clock (no waiting);
 * refusals over real sockets on 127.0.0.1: a PC that does not know this
 * responder (hangs up after TLS), one this responder forgot (says hello), a
 * wrong code, and a hello whose host name is hostile text.
 */
import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, it, type TestContext } from 'node:test';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';
import { Responder } from '../../electron/engine/session/responder.js';
import { encodeFrame } from '../../electron/protocol/framing.js';
import type { ControllerSecurity } from '../../electron/security/controller-security.js';
import { createIdentity } from '../../electron/security/identity.js';
import { pairWith } from '../../electron/security/pair-client.js';
import { PeerStore } from '../../electron/security/peer-store.js';
import { REFUSED_NAME_MAX_CHARS, ResponderSecurity, type Refusal } from '../../electron/security/responder-security.js';
import { readUntilClose, tlsConnect, within } from '../helpers/net.js';
import { pairedTrust, strangerTrust } from '../helpers/trust.js';

const bytesRun = { ...DEFAULT_PARAMS, bytes: 1_000_000, seconds: null };

async function listen(t: TestContext, security: ResponderSecurity): Promise<{ port: number; refusals: Refusal[]; next: () => Promise<Refusal> }> {
  const responder = new Responder({ host: '127.0.0.1', port: 0, security, identifyTimeoutMs: 5000 });
  const { port } = await responder.listen();
  t.after(() => responder.close());
  const refusals: Refusal[] = [];
  security.on('refused', (r) => refusals.push(r));
  const next = (): Promise<Refusal> => within(new Promise<Refusal>((resolve) => security.once('refused', resolve)), 10_000, 'a refusal');
  return { port, refusals, next };
}

describe('responder: refusals and code expiry', { timeout: 60_000 }, () => {
  it('a code expires after its time on the injected clock; without a time it never does', async () => {
    let now = 1_000_000;
    const identity = await createIdentity('responder');
    const security = new ResponderSecurity({ identity, peers: PeerStore.memory(), pairingCodeTtlMs: 10_000 }, () => now);
    const code = security.openPairing();
    assert.equal(security.pairingCodeExpiresAt, 1_010_000);
    now += 9_999;
    assert.equal(security.pairingCode, code.replace(/-/g, ''), 'still valid a millisecond before');
    now += 1;
    assert.equal(security.pairingCode, null, 'refused once its time is up, even with no timer to renew it');
    assert.equal(security.pairingCodeExpiresAt, null);
    const fresh = security.openPairing();
    assert.notEqual(fresh, code);
    assert.equal(security.pairingCodeExpiresAt, now + 10_000, 'a fresh code gets a fresh time');

    const lasting = new ResponderSecurity({ identity, peers: PeerStore.memory() }, () => now);
    lasting.openPairing();
    now += 365 * 24 * 3600_000;
    assert.notEqual(lasting.pairingCode, null, 'the CLI prints its code once: no expiry unless asked for');
    assert.equal(lasting.pairingCodeExpiresAt, null);
  });

  it('an expired code pairs nobody', async (t) => {
    let now = Date.now();
    const security = new ResponderSecurity({ identity: await createIdentity('responder'), peers: PeerStore.memory(), pairingCodeTtlMs: 60_000 }, () => now);
    const code = security.openPairing();
    const { port } = await listen(t, security);
    now += 60_000;
    const controller = await strangerTrust();
    await assert.rejects(pairWith({ host: '127.0.0.1', port, code, security: controller }), { code: 'LH_ERR_PAIRING_CLOSED' });
    assert.equal(security.peers.list().length, 0);
  });

  it('says who was turned away: a PC that does not know it, one it forgot, a wrong code', async (t) => {
    const trust = await pairedTrust({ pairingCode: 'AB12-CD34-EF56' });
    const { port, next } = await listen(t, trust.responder);

    // Knows neither side: the controller hangs up right after TLS; its certificate names it.
    const stranger = await strangerTrust();
    let refusal = next();
    const r1 = await within(startRun({ host: '127.0.0.1', port, security: stranger, params: bytesRun }).result, 10_000, 'stranger run');
    assert.equal(r1.errors[0]?.code, 'LH_ERR_NOT_PAIRED');
    assert.deepEqual(await refusal, { kind: 'not-paired', address: '127.0.0.1', name: 'stranger', fingerprint: stranger.identity.fingerprint });

    // Pinned this responder, but the responder does not know it: its hello names it.
    const forgotten: ControllerSecurity = { identity: stranger.identity, peers: PeerStore.memory(trust.controller.peers.list()) };
    refusal = next();
    await within(startRun({ host: '127.0.0.1', port, security: forgotten, params: bytesRun }).result, 10_000, 'forgotten run');
    assert.deepEqual(await refusal, { kind: 'not-paired', address: '127.0.0.1', name: os.hostname(), fingerprint: stranger.identity.fingerprint });

    refusal = next();
    await assert.rejects(pairWith({ host: '127.0.0.1', port, code: 'AB12-CD34-EF57', security: stranger }), { code: 'LH_ERR_PAIRING_CODE' });
    assert.deepEqual(await refusal, { kind: 'wrong-code', address: '127.0.0.1', name: 'stranger', fingerprint: stranger.identity.fingerprint });
  });

  it('a paired controller is never listed', async (t) => {
    const trust = await pairedTrust();
    const { port, refusals } = await listen(t, trust.responder);
    const ok = await within(startRun({ host: '127.0.0.1', port, security: trust.controller, params: bytesRun }).result, 20_000, 'paired run');
    assert.equal(ok.partial, false, ok.partialReason ?? '');
    assert.deepEqual(refusals, []);
  });

  it("a hostile host name is made printable and cut to one line's length", async (t) => {
    const trust = await pairedTrust();
    const { port, next } = await listen(t, trust.responder);
    const stranger = await strangerTrust();
    const refusal = next();
    const socket = await tlsConnect(port, stranger);
    const hostname = `lab\u001b[2J\u202eevil${'x'.repeat(500)}`;
    socket.write(encodeFrame({ type: 'hello', protocol: 1, software: 'x', hostname, capabilities: [] }));
    await readUntilClose(socket);
    const { name } = await refusal;
    assert.ok(name !== null);
    assert.ok(name.startsWith('lab\\u{1b}[2J\\u{202e}evil'), name);
    assert.ok(name.length <= REFUSED_NAME_MAX_CHARS + 1, `${name.length} characters`);
  });
});
