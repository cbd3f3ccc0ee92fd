/**
 * The app's Pair screen calls: `pairPeer` with a wrong code is refused with its
 * code, with the right one pairs (stored in the app's trust folder), and a run
 * to that responder then needs no code. `discoverResponders` is covered by
 * test/discovery (it multicasts, so only inside a namespace).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { AppBackend } from '../../electron/app/backend.js';
import type { RunEnded } from '../../electron/contract/api.js';
import { createIdentity } from '../../electron/security/identity.js';
import { PeerStore } from '../../electron/security/peer-store.js';
import { ResponderSecurity } from '../../electron/security/responder-security.js';
import { startResponder, within } from '../helpers/net.js';

describe('app backend: pairing', { timeout: 40_000 }, () => {
  it('wrong code refused, right code pairs, then a run needs no code', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-backend-pair-'));
    const backend = new AppBackend({ mode: 'browser', dataDir: dir, trustDir: path.join(dir, 'trust'), saveExport: async (f) => ({ kind: 'download', ...f }) });
    const security = new ResponderSecurity({ identity: await createIdentity('lab'), peers: PeerStore.memory(), pairingCode: 'AB12-CD34-EF56' });
    const { responder, port } = await startResponder({ security });
    try {
      await assert.rejects(backend.call('pairPeer', { host: '127.0.0.1', port, code: 'AB12-CD34-EF57' }), { code: 'LH_ERR_PAIRING_CODE' });
      await assert.rejects(backend.call('pairPeer', { host: '127.0.0.1', port, code: 'short' }), { code: 'LH_ERR_BAD_ARGUMENT' });
      const peer = await backend.call('pairPeer', { host: '127.0.0.1', port, code: 'ab12 cd34 ef56' });
      assert.equal(peer.name, 'lab');
      assert.equal(peer.fingerprint, security.identity.fingerprint);
      const end = new Promise<RunEnded>((resolve) => backend.hub.subscribe((name, payload) => name === 'onRunEnd' && resolve(payload as RunEnded)));
      const params = { streams: 1, bufferBytes: 131072, windowBytes: null, bytes: 1_000_000, seconds: null, direction: 'forward' as const, intervalSeconds: 1 };
      await backend.call('startRun', { host: '127.0.0.1', port, params, link: { kind: 'direct' } });
      const { result } = await within(end, 20_000, 'run end');
      assert.equal(result.partial, false, result.partialReason ?? '');
      assert.equal(result.total.bytes, 1_000_000);
    } finally {
      await backend.close();
      await responder.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
