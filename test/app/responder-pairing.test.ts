/**
 * The Waiting screen's pairing, from the app's ResponderHost over real sockets
 * on 127.0.0.1: the status carries the code, when it runs out, this PC's name
 * and fingerprint, and a line for each controller turned away; the code is
 * renewed when it expires and after a pairing; a busy port is said in words.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { EventHub } from '../../electron/app/event-hub.js';
import { HistoryStore } from '../../electron/app/history-store.js';
import { ResponderHost, type ResponderHostOptions } from '../../electron/app/responder-host.js';
import type { Events, ResponderStatus } from '../../electron/contract/api.js';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';
import { shortFingerprint } from '../../electron/security/identity.js';
import { pairWith } from '../../electron/security/pair-client.js';
import { within } from '../helpers/net.js';
import { pairedInstallation, strangerTrust } from '../helpers/trust.js';

/** Resolves with the first responder status that satisfies `pred`, or rejects after `ms`. */
function nextStatus(hub: EventHub, pred: (s: ResponderStatus) => boolean, ms = 10_000): Promise<ResponderStatus> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error(`no matching responder status within ${ms} ms`))), ms);
    const off = hub.subscribe(<K extends keyof Events>(name: K, payload: Events[K]['payload']) => {
      if (name !== 'onResponder' || !pred(payload as ResponderStatus)) return;
      clearTimeout(timer);
      off();
      resolve(payload as ResponderStatus);
    });
  });
}

async function waiting(t: TestContext, opts: ResponderHostOptions = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-waiting-pair-'));
  const hub = new EventHub();
  const { controller, responderTrust } = await pairedInstallation(dir);
  const host = new ResponderHost(hub, new HistoryStore(dir), responderTrust, opts);
  t.after(async () => {
    await host.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const identity = (await responderTrust()).identity;
  return { hub, host, controller, identity };
}

const bytesRun = { ...DEFAULT_PARAMS, bytes: 1_000_000, seconds: null };

describe('app responder host: pairing on the Waiting screen', { timeout: 60_000 }, () => {
  it('shows the code, its expiry, this PC; lists a stranger and a wrong code; a pairing renews the code and clears its lines', async (t) => {
    const { hub, host, identity } = await waiting(t);
    const before = Date.now();
    const s = await host.start(0, '127.0.0.1');
    assert.equal(s.state, 'listening');
    assert.match(s.pairingCode ?? '', /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    assert.ok(s.pairingCodeExpiresAt! >= before + 10 * 60_000 && s.pairingCodeExpiresAt! <= Date.now() + 10 * 60_000, 'ten minutes');
    assert.deepEqual(s.thisPc, { name: 'test-responder', fingerprint: shortFingerprint(identity.fingerprint) });
    assert.deepEqual(s.refused, []);

    const stranger = await strangerTrust();
    let listed = nextStatus(hub, (x) => x.refused.length === 1);
    const run = await within(startRun({ host: '127.0.0.1', port: s.port!, security: stranger, params: bytesRun }).result, 10_000, 'stranger run');
    assert.equal(run.errors[0]?.code, 'LH_ERR_NOT_PAIRED');
    const one = (await listed).refused[0]!;
    assert.deepEqual(
      { ...one, at: typeof one.at },
      {
        kind: 'not-paired',
        at: 'string',
        address: '127.0.0.1',
        name: 'stranger',
        fingerprint: shortFingerprint(stranger.identity.fingerprint),
        count: 1,
      },
    );

    listed = nextStatus(hub, (x) => x.refused.length === 2);
    await assert.rejects(pairWith({ host: '127.0.0.1', port: s.port!, code: 'AB12-CD34-EF57', security: stranger }), { code: 'LH_ERR_PAIRING_CODE' });
    assert.deepEqual(
      (await listed).refused.map((r) => r.kind),
      ['wrong-code', 'not-paired'],
      'newest first',
    );

    const renewed = nextStatus(hub, (x) => x.pairingCode !== s.pairingCode);
    await pairWith({ host: '127.0.0.1', port: s.port!, code: s.pairingCode!, security: stranger });
    const after = await renewed;
    assert.notEqual(after.pairingCode, null, 'a fresh code for the next PC');
    assert.deepEqual(after.refused, [], 'the PC is paired now: its lines go');
  });

  it('replaces the code when it expires, while waiting', async (t) => {
    const { hub, host } = await waiting(t, { pairingCodeTtlMs: 300 });
    const s = await host.start(0, '127.0.0.1');
    const next = await nextStatus(hub, (x) => x.pairingCode !== s.pairingCode, 5000);
    assert.equal(next.state, 'listening');
    assert.notEqual(next.pairingCode, null);
    assert.ok(next.pairingCodeExpiresAt! > s.pairingCodeExpiresAt!, 'the new code runs out later');
    // The stale code no longer pairs.
    await assert.rejects(pairWith({ host: '127.0.0.1', port: s.port!, code: s.pairingCode!, security: await strangerTrust() }), {
      code: 'LH_ERR_PAIRING_CODE',
    });
    assert.equal((await host.stop()).pairingCode, null);
  });

  it('says a busy port in words, not the OS error', async (t) => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    t.after(() => busy.close());
    const port = (busy.address() as net.AddressInfo).port;
    const { host } = await waiting(t);
    const s = await host.start(port, '127.0.0.1');
    assert.equal(s.state, 'stopped');
    assert.equal(
      s.error?.message,
      `TCP port ${port} is already in use on this PC (another Longhaul or program is waiting there): choose another port, e.g. 0 for any free one`,
    );
    // The port is free again once the other program lets go, and the same host can start.
    await new Promise((r) => busy.close(r));
    assert.equal((await host.start(port, '127.0.0.1')).state, 'listening');
  });
});
