/**
 * The Partner step's calls through AppBackend.call, as the UI makes them:
 * checkPeer says "not paired" until pairPeer succeeds and "paired" after;
 * listPeers shows the PC with its address and last seen; forgetPeer removes
 * it (checked by fingerprint, idempotent) and the check says "not paired" again.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppBackend } from '../../electron/app/backend.js';
import type { Responder } from '../../electron/engine/session/responder.js';
import { createIdentity, type Identity } from '../../electron/security/identity.js';
import { PeerStore } from '../../electron/security/peer-store.js';
import { ResponderSecurity } from '../../electron/security/responder-security.js';
import { startResponder } from '../helpers/net.js';

const CODE = 'AB12-CD34-EF56';

describe('app backend: paired PCs', { timeout: 40_000 }, () => {
  let dir: string;
  let backend: AppBackend;
  let responder: Responder;
  let port: number;
  let lab: Identity;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-backend-peers-'));
    backend = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
    lab = await createIdentity('lab-7');
    ({ responder, port } = await startResponder({ security: new ResponderSecurity({ identity: lab, peers: PeerStore.memory(), pairingCode: CODE }) }));
  });
  after(async () => {
    await backend.close();
    await responder.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('check: not paired, then paired after pairPeer; an iperf3 check has no pairing', async () => {
    assert.deepEqual(await backend.call('listPeers', null), []);
    const first = await backend.call('checkPeer', { host: '127.0.0.1', port });
    assert.equal(first.verdict, 'reachable');
    assert.deepEqual(first.pairing, { state: 'not-paired', name: 'lab-7', fingerprint: lab.fingerprint });
    assert.equal((await backend.call('checkPeer', { host: '127.0.0.1', port, partner: 'iperf3' })).pairing, null);
    // The probe left the one-time code open: it still pairs.
    await backend.call('pairPeer', { host: '127.0.0.1', port, code: CODE });
    const second = await backend.call('checkPeer', { host: '127.0.0.1', port, partner: 'longhaul' });
    assert.deepEqual(second.pairing, { state: 'paired', name: 'lab-7', fingerprint: lab.fingerprint });
  });

  it('listPeers: the PC with its last address and times', async () => {
    const [peer, ...rest] = await backend.call('listPeers', null);
    assert.deepEqual(rest, []);
    assert.equal(peer?.name, 'lab-7');
    assert.equal(peer?.fingerprint, lab.fingerprint);
    assert.equal(peer?.address, '127.0.0.1');
    assert.ok(Date.parse(peer!.lastSeen) >= Date.parse(peer!.pairedAt));
  });

  it('forgetPeer: checked, removes by fingerprint, idempotent; the check then says not paired', async () => {
    await assert.rejects(backend.call('forgetPeer', { fingerprint: 'lab-7' }), { code: 'LH_ERR_BAD_ARGUMENT' });
    await assert.rejects(backend.call('forgetPeer', { fingerprint: lab.fingerprint.slice(0, 16) }), { code: 'LH_ERR_BAD_ARGUMENT' });
    await assert.rejects(backend.call('listPeers', { all: true }), { code: 'LH_ERR_BAD_ARGUMENT' });
    const other = await createIdentity('other');
    assert.equal((await backend.call('forgetPeer', { fingerprint: other.fingerprint })).length, 1, 'another fingerprint forgets nothing');
    assert.deepEqual(await backend.call('forgetPeer', { fingerprint: lab.fingerprint }), []);
    assert.deepEqual(await backend.call('forgetPeer', { fingerprint: lab.fingerprint }), []);
    assert.deepEqual((await backend.trust()).peers.list(), [], 'gone from the peers file');
    assert.equal((await backend.call('checkPeer', { host: '127.0.0.1', port })).pairing?.state, 'not-paired');
  });
});
