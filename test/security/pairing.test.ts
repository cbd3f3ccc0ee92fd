/**
 * Pairing and trust over real sockets on 127.0.0.1: an unpaired controller is
 * refused before any data stream opens; wrong codes lock pairing out with
 * backoff, the right code afterwards pairs; a relay terminating TLS with its
 * own certificates (a man in the middle) makes pairing fail with the reason.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import tls from 'node:tls';
import { describe, it, type TestContext } from 'node:test';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';
import { Responder } from '../../electron/engine/session/responder.js';
import { encodeFrame, FrameParser } from '../../electron/protocol/framing.js';
import type { ControllerSecurity } from '../../electron/security/controller-security.js';
import { createIdentity, type Identity } from '../../electron/security/identity.js';
import { pairWith } from '../../electron/security/pair-client.js';
import { newPairingCode } from '../../electron/security/pairing-code.js';
import { PeerStore } from '../../electron/security/peer-store.js';
import { ResponderSecurity } from '../../electron/security/responder-security.js';
import { LonghaulError } from '../../electron/util/errors.js';
import { within } from '../helpers/net.js';
import { pairedTrust, strangerTrust } from '../helpers/trust.js';

async function listen(
  t: TestContext,
  security: ResponderSecurity,
): Promise<{ responder: Responder; port: number; rejected: string[]; sessions: () => number }> {
  const responder = new Responder({ host: '127.0.0.1', port: 0, security, identifyTimeoutMs: 5000 });
  const { port } = await responder.listen();
  t.after(() => responder.close());
  const rejected: string[] = [];
  let sessions = 0;
  responder.on('rejected', (_peer, why) => rejected.push(why));
  responder.on('session', () => sessions++);
  return { responder, port, rejected, sessions: () => sessions };
}

const bytesRun = { ...DEFAULT_PARAMS, bytes: 2_000_000, seconds: null };

async function pairError(p: Promise<unknown>): Promise<LonghaulError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof LonghaulError, String(err));
    return err;
  }
  assert.fail('pairing should have failed');
}

describe('pairing and trust', { timeout: 60_000 }, () => {
  it('an unpaired controller is refused with a clear message; no session, no data stream', async (t) => {
    const trust = await pairedTrust();
    const { port, rejected, sessions } = await listen(t, trust.responder);
    // A stranger who does not know the responder either: the controller stops before saying hello.
    const stranger = await strangerTrust();
    const r1 = await within(startRun({ host: '127.0.0.1', port, security: stranger, params: bytesRun }).result, 10_000, 'stranger run');
    assert.equal(r1.errors[0]?.code, 'LH_ERR_NOT_PAIRED');
    assert.match(r1.errors[0]!.message, /not paired with this PC.*longhaul pair 127\.0\.0\.1:\d+ --code CODE/);
    // A controller that pinned this responder, but the responder does not know it (forgotten): the responder refuses.
    const forgotten: ControllerSecurity = { identity: stranger.identity, peers: PeerStore.memory(trust.controller.peers.list()) };
    const r2 = await within(startRun({ host: '127.0.0.1', port, security: forgotten, params: bytesRun }).result, 10_000, 'forgotten run');
    assert.equal(r2.errors[0]?.code, 'LH_ERR_NOT_PAIRED');
    assert.match(r2.errors[0]!.message, /this responder .* is not paired with this PC/);
    for (const r of [r1, r2]) {
      assert.equal(r.partial, true);
      assert.equal(r.total.bytes, 0);
      assert.equal(r.intervals.length, 0);
    }
    assert.equal(sessions(), 0, 'no run session was created');
    assert.ok(!rejected.some((w) => /data connection/.test(w)), `no data connection was attempted: ${rejected.join('; ')}`);
    // The paired controller is served.
    const ok = await within(startRun({ host: '127.0.0.1', port, security: trust.controller, params: bytesRun }).result, 20_000, 'paired run');
    assert.equal(ok.partial, false, ok.partialReason ?? '');
    assert.equal(ok.total.bytes, 2_000_000);
  });

  it('5 wrong codes lock pairing out; the right code is refused during the lockout, accepted after it; then runs need no code', async (t) => {
    const code = newPairingCode();
    const responderId = await createIdentity('responder');
    const security = new ResponderSecurity({ identity: responderId, peers: PeerStore.memory(), pairingCode: code, guard: { maxAttempts: 5, lockoutMs: 1500 } });
    const { port } = await listen(t, security);
    const controller: ControllerSecurity = { identity: await createIdentity('controller'), peers: PeerStore.memory() };
    const wrong = code.replace(/^./, (c) => (c === '7' ? '8' : '7'));
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push((await pairError(pairWith({ host: '127.0.0.1', port, code: wrong, security: controller }))).code);
    assert.deepEqual(codes, ['LH_ERR_PAIRING_CODE', 'LH_ERR_PAIRING_CODE', 'LH_ERR_PAIRING_CODE', 'LH_ERR_PAIRING_CODE', 'LH_ERR_PAIRING_CODE']);
    const locked = await pairError(pairWith({ host: '127.0.0.1', port, code, security: controller }));
    assert.equal(locked.code, 'LH_ERR_PAIRING_LOCKED');
    assert.match(locked.message, /locked for another \d+ s/);
    await new Promise((r) => setTimeout(r, 1700));
    // After the lockout one more wrong code locks again, twice as long (backoff).
    const again = await pairError(pairWith({ host: '127.0.0.1', port, code: wrong, security: controller }));
    assert.match(again.message, /locked for 3 s/);
    await new Promise((r) => setTimeout(r, 3200));
    const peer = await pairWith({ host: '127.0.0.1', port, code, security: controller });
    assert.equal(peer.fingerprint, responderId.fingerprint);
    assert.equal(security.peers.find(controller.identity.fingerprint)?.name, 'controller');
    // One-time: the code is spent.
    const spent = await pairError(pairWith({ host: '127.0.0.1', port, code, security: { identity: await createIdentity('late'), peers: PeerStore.memory() } }));
    assert.equal(spent.code, 'LH_ERR_PAIRING_CLOSED');
    const run = await within(startRun({ host: '127.0.0.1', port, security: controller, params: bytesRun }).result, 20_000, 'run after pairing');
    assert.equal(run.partial, false, run.partialReason ?? '');
  });

  it('a stranger who locks itself out does not lock out the real controller at another address; its junk is told to the operator once', async (t) => {
    const code = newPairingCode();
    const responderId = await createIdentity('responder');
    const security = new ResponderSecurity({
      identity: responderId,
      peers: PeerStore.memory(),
      pairingCode: code,
      guard: { maxAttempts: 3, lockoutMs: 60_000 },
    });
    const told: string[] = [];
    security.on('pairing-failed', (address, errCode) => told.push(`${address} ${errCode}`));
    const { port } = await listen(t, security);
    const stranger: ControllerSecurity = { identity: await createIdentity('stranger'), peers: PeerStore.memory() };
    const wrong = code.replace(/^./, (c) => (c === '7' ? '8' : '7'));
    for (let i = 0; i < 4; i++) await pairError(pairWith({ host: '127.0.0.1', port, code: wrong, security: stranger, localAddress: '127.0.0.1' }));
    const locked = await pairError(pairWith({ host: '127.0.0.1', port, code, security: stranger, localAddress: '127.0.0.1' }));
    assert.equal(locked.code, 'LH_ERR_PAIRING_LOCKED', "the stranger's address is locked, even with the right code");
    // The real controller, at another address, pairs during the stranger's 60 s lockout.
    const controller: ControllerSecurity = { identity: await createIdentity('controller'), peers: PeerStore.memory() };
    const peer = await pairWith({ host: '127.0.0.1', port, code, security: controller, localAddress: '127.0.0.2' });
    assert.equal(peer.fingerprint, responderId.fingerprint);
    assert.equal(security.peers.find(controller.identity.fingerprint)?.address, '127.0.0.2');
    assert.ok(told.filter((x) => x.startsWith('127.0.0.1')).length >= 1);
  });

  it('a flood of forged requests (wrong responder fingerprint) costs the operator one line per address, and the right code still pairs', async (t) => {
    const code = newPairingCode();
    const responderId = await createIdentity('responder');
    const security = new ResponderSecurity({ identity: responderId, peers: PeerStore.memory(), pairingCode: code });
    const told: string[] = [];
    security.on('pairing-failed', (address, errCode) => told.push(`${address} ${errCode}`));
    const { port } = await listen(t, security);
    // Requests naming another responder, as junk (or an interceptor) would: a relay with its own certificate does exactly that.
    const relay = await startRelay(t, port, await createIdentity('junk-front'), await createIdentity('junk-back'), false);
    const junk: ControllerSecurity = { identity: await createIdentity('junk'), peers: PeerStore.memory() };
    const errors = await Promise.all(Array.from({ length: 8 }, () => pairError(pairWith({ host: '127.0.0.1', port: relay, code, security: junk }))));
    assert.ok(
      errors.every((e) => e.code === 'LH_ERR_PAIRING_MITM' || e.code === 'LH_ERR_PAIRING_LOCKED'),
      JSON.stringify(errors.map((e) => e.code)),
    );
    assert.equal(told.filter((x) => x.endsWith('LH_ERR_PAIRING_MITM')).length, 1, `told once: ${told.join('; ')}`);
    const controller: ControllerSecurity = { identity: await createIdentity('controller'), peers: PeerStore.memory() };
    const peer = await pairWith({ host: '127.0.0.1', port, code, security: controller, localAddress: '127.0.0.2' });
    assert.equal(peer.fingerprint, responderId.fingerprint);
  });

  it('a relay terminating TLS with its own certificates: pairing fails and says why; a pinned run through it is refused', async (t) => {
    const code = newPairingCode();
    const responderId = await createIdentity('responder');
    const security = new ResponderSecurity({ identity: responderId, peers: PeerStore.memory(), pairingCode: code });
    const { port } = await listen(t, security);
    const controller: ControllerSecurity = { identity: await createIdentity('controller'), peers: PeerStore.memory() };
    const relay = await startRelay(t, port, await createIdentity('mallory-front'), await createIdentity('mallory-back'), false);
    const e1 = await pairError(pairWith({ host: '127.0.0.1', port: relay, code, security: controller }));
    assert.equal(e1.code, 'LH_ERR_PAIRING_MITM');
    assert.match(e1.message, /different certificates.*man in the middle/);
    // A smarter relay rewrites the fingerprints it forwards: the proof, bound to each TLS session, still fails.
    const rewriting = await startRelay(t, port, await createIdentity('mallory-front'), await createIdentity('mallory-back'), true);
    const e2 = await pairError(pairWith({ host: '127.0.0.1', port: rewriting, code, security: controller }));
    assert.equal(e2.code, 'LH_ERR_PAIRING_CODE');
    assert.match(e2.message, /intercepts the connection/);
    assert.equal(controller.peers.list().length, 0, 'the controller stored nothing');
    assert.equal(security.peers.list().length, 0, 'the responder stored nothing');
    // Paired directly, a run through the relay is refused by the pinned fingerprint.
    await pairWith({ host: '127.0.0.1', port, code, security: controller });
    const r = await within(startRun({ host: '127.0.0.1', port: relay, security: controller, params: bytesRun }).result, 10_000, 'run via relay');
    assert.equal(r.errors[0]?.code, 'LH_ERR_NOT_PAIRED');
  });
});

/**
 * A man in the middle: accepts TLS with `front`'s certificate, dials the
 * responder with `back`'s, and forwards the plaintext; `rewrite` swaps the
 * fingerprints in a pair request for the ones each real end expects.
 */
async function startRelay(t: TestContext, target: number, front: Identity, back: Identity, rewrite: boolean): Promise<number> {
  const server = tls.createServer({ cert: front.certPem, key: front.keyPem, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.3' }, (inner) => {
    inner.on('error', () => undefined);
    const outer = tls.connect({
      host: '127.0.0.1',
      port: target,
      cert: back.certPem,
      key: back.keyPem,
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
    });
    outer.on('error', () => inner.destroy());
    outer.once('secureConnect', () => {
      const realResponderFp = outer.getPeerX509Certificate()!.fingerprint256.replace(/:/g, '').toLowerCase();
      const parser = new FrameParser();
      inner.on('data', (chunk: Buffer) => {
        if (!rewrite) return void outer.write(chunk);
        for (const m of parser.push(chunk) as Record<string, unknown>[]) {
          if (m.type === 'pair') Object.assign(m, { controllerFingerprint: back.fingerprint, responderFingerprint: realResponderFp });
          outer.write(encodeFrame(m));
        }
      });
      outer.pipe(inner);
      inner.on('close', () => outer.destroy());
      outer.on('close', () => inner.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  const sockets = new Set<net.Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  t.after(() => {
    for (const s of sockets) s.destroy();
  });
  return (server.address() as net.AddressInfo).port;
}
