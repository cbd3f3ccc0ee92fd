/**
 * The connection check says pairing, not only reachability: against a real
 * Responder on port 0 it reads the responder's certificate and compares it
 * with this PC's peers, without the responder counting it as an attempt
 * (nothing refused, the pairing guard untouched, the one-time code still open).
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { checkConnection } from '../../electron/app/connection-check.js';
import { probePairing } from '../../electron/app/pairing-probe.js';
import { Responder } from '../../electron/engine/session/responder.js';
import { commonName, createIdentity } from '../../electron/security/identity.js';
import { pairWith } from '../../electron/security/pair-client.js';
import { PeerStore } from '../../electron/security/peer-store.js';
import { ResponderSecurity } from '../../electron/security/responder-security.js';
import { startResponder, within } from '../helpers/net.js';
import { strangerTrust } from '../helpers/trust.js';

const CODE = 'K7QM-2XRD-9PQT';

describe('connection check: pairing', { timeout: 30_000 }, () => {
  it('a paired responder: paired, with the name stored here and its fingerprint; last seen is noted', async () => {
    const { responder, port, security } = await startResponder();
    try {
      const before = security.peers.list()[0]!;
      await new Promise((r) => setTimeout(r, 5));
      const c = await checkConnection('127.0.0.1', port, 3000, security);
      assert.equal(c.verdict, 'reachable');
      assert.equal(c.pairing?.state, 'paired');
      assert.equal(c.pairing?.name, 'test-responder');
      assert.equal(c.pairing?.fingerprint, before.fingerprint);
      assert.doesNotMatch(c.detail, /fingerprint/, 'the UI says the pairing from `pairing`, once');
      assert.ok(security.peers.find(before.fingerprint)!.lastSeen > before.lastSeen, 'the check counts as seen');
    } finally {
      await responder.close();
    }
  });

  it('a stranger: not paired, its certificate name; the responder refuses nothing, the code stays open, and pairing then works', async () => {
    const identity = await createIdentity('lab-7');
    const rs = new ResponderSecurity({ identity, peers: PeerStore.memory(), pairingCode: CODE });
    const responder = new Responder({ host: '127.0.0.1', port: 0, security: rs });
    const rejected: string[] = [];
    responder.on('rejected', (_peer, why) => rejected.push(why));
    const failures: string[] = [];
    rs.on('pairing-failed', (_a, code) => failures.push(code));
    const { port } = await responder.listen();
    const me = await strangerTrust();
    try {
      for (let i = 0; i < 6; i++) {
        const c = await checkConnection('127.0.0.1', port, 3000, me);
        assert.equal(c.verdict, 'reachable');
        assert.deepEqual(c.pairing, { state: 'not-paired', name: 'lab-7', fingerprint: identity.fingerprint });
      }
      // Each probe ended before its first message: closed quietly, no error frame sent, no attempt counted.
      await within(
        (async () => {
          while (rejected.length < 6) await new Promise((r) => setTimeout(r, 20));
        })(),
        5000,
        'the six probes closing on the responder',
      );
      assert.deepEqual([...new Set(rejected)], ['closed before its first message']);
      assert.deepEqual(failures, []);
      assert.equal(rs.guard.attemptsLeft('127.0.0.1'), 5);
      assert.equal(rs.guard.attemptsLeft('::ffff:127.0.0.1'), 5);
      assert.notEqual(rs.pairingCode, null, 'the one-time code is still open');
      const peer = await pairWith({ host: '127.0.0.1', port, code: CODE, security: me });
      assert.equal(peer.fingerprint, identity.fingerprint);
      const after = await checkConnection('127.0.0.1', port, 3000, me);
      assert.equal(after.pairing?.state, 'paired');
    } finally {
      await responder.close();
    }
  });

  it("this PC's own responder (same installation) is paired", async () => {
    const me = await strangerTrust();
    const responder = new Responder({ host: '127.0.0.1', port: 0, security: new ResponderSecurity({ identity: me.identity, peers: me.peers }) });
    const { port } = await responder.listen();
    try {
      const c = await checkConnection('127.0.0.1', port, 3000, me);
      assert.deepEqual(c.pairing, { state: 'paired', name: 'stranger (this PC)', fingerprint: me.identity.fingerprint });
    } finally {
      await responder.close();
    }
  });

  it('no security (an iperf3 partner), or nothing listening: no pairing verdict', async () => {
    const { responder, port, security } = await startResponder();
    try {
      assert.equal((await checkConnection('127.0.0.1', port, 3000, null)).pairing, null);
    } finally {
      await responder.close();
    }
    const c = await checkConnection('127.0.0.1', port, 3000, security);
    assert.equal(c.verdict, 'refused');
    assert.equal(c.pairing, null);
  });

  it('something that is not Longhaul: reachable, pairing unknown with the reason; a silent one within the deadline', async () => {
    const me = await strangerTrust();
    const held: net.Socket[] = [];
    // Reading (resume) so it sees the probe's close and lets go.
    const closer = net.createServer((s) =>
      s
        .on('error', () => undefined)
        .resume()
        .end('SSH-2.0-OpenSSH\r\n'),
    );
    const silent = net.createServer((s) => held.push(s.on('error', () => undefined)));
    await Promise.all([closer, silent].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
    try {
      const c = await checkConnection('127.0.0.1', (closer.address() as net.AddressInfo).port, 3000, me);
      assert.equal(c.verdict, 'reachable');
      assert.deepEqual(c.pairing, { state: 'unknown', name: null, fingerprint: null });
      assert.match(c.detail, /did not answer as a Longhaul partner/);

      const raw = net.connect({ host: '127.0.0.1', port: (silent.address() as net.AddressInfo).port });
      await new Promise((r) => raw.once('connect', r));
      const t0 = Date.now();
      const p = await within(probePairing(raw, 'silent', me, 300), 3000, 'the probe of a silent server');
      assert.equal(p.pairing.state, 'unknown');
      assert.match(p.reason ?? '', /did not finish the TLS handshake/);
      assert.ok(Date.now() - t0 < 2000, `bounded (${Date.now() - t0} ms)`);
      assert.ok(raw.destroyed, 'the probe closed its socket');
    } finally {
      for (const s of held) s.destroy();
      await Promise.all([closer, silent].map((s) => new Promise((r) => s.close(r))));
    }
  });

  it('reads the name from a certificate subject', () => {
    assert.equal(commonName('CN=lab-7\nO=Longhaul'), 'lab-7');
    assert.equal(commonName('O=Longhaul, CN=pc.example'), 'pc.example');
    assert.equal(commonName('O=Longhaul'), null);
  });
});
