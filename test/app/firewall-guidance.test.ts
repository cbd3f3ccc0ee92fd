/**
 * Firewall guidance: the controller's check tells what to allow on a silent
 * partner; the responder, after waiting with no partner, tells what to allow on
 * this PC; a partner that did connect never triggers it. Real sockets on 127.0.0.1.
 */
import { pairedInstallation } from '../helpers/trust.js';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Events, ResponderStatus } from '../../electron/contract/api.js';
import { detailFor } from '../../electron/app/connection-check.js';
import { EventHub } from '../../electron/app/event-hub.js';
import { allowSteps, partnerFirewallAdvice, waitingFirewallHint } from '../../electron/app/firewall-guidance.js';
import { HistoryStore } from '../../electron/app/history-store.js';
import { ResponderHost } from '../../electron/app/responder-host.js';
import { startRun } from '../../electron/engine/session/controller.js';
import { strangerTrust } from '../helpers/trust.js';
import net from 'node:net';

/** Resolves with the first responder status that satisfies `pred`, or rejects after `ms`. */
function nextStatus(hub: EventHub, pred: (s: ResponderStatus) => boolean, ms: number): Promise<ResponderStatus> {
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

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('firewall guidance', { timeout: 60_000 }, () => {
  it('names the place to allow Longhaul on each OS', () => {
    assert.match(allowSteps('win32', 5211), /Windows Security → Firewall & network protection → "Allow an app through firewall"/);
    assert.match(allowSteps('win32', 5211), /Private/);
    assert.match(allowSteps('darwin', 5211), /System Settings → Network → Firewall/);
    assert.match(allowSteps('linux', 6000), /ufw allow 6000\/tcp/);
    assert.match(
      waitingFirewallHint('nothing', 'win32', 5211, 45_000) ?? '',
      /^No connection at all has reached this PC in 45 s\. .*On this PC, open Windows Security/,
    );
    // Once something reached this PC, no firewall dropped it: the words say what came, and name no firewall step.
    assert.match(waitingFirewallHint('unpaired', 'linux', 5501, 45_000) ?? '', /a PC that is not paired with this one did reach it/);
    assert.doesNotMatch(waitingFirewallHint('unpaired', 'linux', 5501, 45_000) ?? '', /ufw/);
    assert.match(waitingFirewallHint('connection', 'linux', 5501, 45_000) ?? '', /connections did reach this PC/);
    assert.equal(waitingFirewallHint('partner', 'linux', 5501, 45_000), null);
  });

  it('adds partner advice to a silent or filtered check, not to a refused one', () => {
    const timedOut = detailFor('timed-out', '192.0.2.7', 5211, 3000);
    assert.ok(timedOut.startsWith('no answer from 192.0.2.7:5211 within 3000 ms'));
    assert.ok(timedOut.endsWith(partnerFirewallAdvice(5211)));
    assert.match(detailFor('firewall-suspected', 'h', 5211, 5, 'EHOSTUNREACH'), /\(the OS said EHOSTUNREACH\)\nIf Longhaul is waiting on the partner PC/);
    assert.doesNotMatch(detailFor('refused', 'h', 5211, 5, 'ECONNREFUSED'), /firewall/i);
    assert.doesNotMatch(detailFor('reachable', 'h', 5211, 5), /firewall/i);
  });

  it('shows the hint on the waiting screen when no partner arrives, and clears it on stop', async (t) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-fw-'));
    const hub = new EventHub();
    const { responderTrust } = await pairedInstallation(dir);
    const host = new ResponderHost(hub, new HistoryStore(dir), responderTrust, { firewallHintAfterMs: 300, platform: 'win32' });
    t.after(async () => {
      await host.stop();
      await rm(dir, { recursive: true, force: true });
    });
    const hinted = nextStatus(hub, (s) => s.firewallHint !== null, 5000);
    const started = await host.start(0, '127.0.0.1');
    assert.equal(started.state, 'listening');
    assert.equal(started.firewallHint, null, 'no hint at once');
    const s = await hinted;
    assert.equal(s.state, 'listening');
    assert.match(s.firewallHint!, /No connection at all has reached this PC in 0 s.*Allow an app through firewall/);
    assert.equal((await host.stop()).firewallHint, null);
  });

  it('never shows it once a partner has connected', async (t) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-fw-'));
    const hub = new EventHub();
    const hintAfterMs = 2500;
    const { controller, responderTrust } = await pairedInstallation(dir);
    const host = new ResponderHost(hub, new HistoryStore(dir), responderTrust, { firewallHintAfterMs: hintAfterMs, platform: 'linux' });
    const statuses: ResponderStatus[] = [];
    hub.subscribe((name, payload) => void (name === 'onResponder' && statuses.push(payload as ResponderStatus)));
    t.after(async () => {
      await host.stop();
      await rm(dir, { recursive: true, force: true });
    });
    const t0 = Date.now();
    const { port } = await host.start(0, '127.0.0.1');
    const run = startRun({
      host: '127.0.0.1',
      port: port!,
      params: { streams: 1, bufferBytes: 65536, windowBytes: null, bytes: 1 << 20, seconds: null, direction: 'forward', intervalSeconds: 1 },
      security: controller,
    });
    const result = await run.result;
    assert.equal(result.partial, false, result.partialReason ?? '');
    assert.ok(
      statuses.some((s) => s.state === 'running'),
      'the partner connected',
    );
    // Wait past the hint's deadline (measured from listening), with margin for a loaded machine.
    await sleep(Math.max(0, hintAfterMs + 500 - (Date.now() - t0)));
    assert.ok(
      statuses.every((s) => s.firewallHint === null),
      'no hint after a partner came',
    );
  });

  it('follows what reaches this PC once shown: a stray connection, an unpaired PC, then withdrawn when a partner runs', async (t) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-fw-'));
    const hub = new EventHub();
    const { controller, responderTrust } = await pairedInstallation(dir);
    const host = new ResponderHost(hub, new HistoryStore(dir), responderTrust, { firewallHintAfterMs: 300, platform: 'linux' });
    t.after(async () => {
      await host.stop();
      await rm(dir, { recursive: true, force: true });
    });
    const nothing = nextStatus(hub, (s) => s.firewallHint !== null, 5000);
    const { port } = await host.start(0, '127.0.0.1');
    assert.match((await nothing).firewallHint!, /^No connection at all .*ufw allow \d+\/tcp/);
    // Bytes that are not TLS: turned away, but they arrived.
    const connection = nextStatus(hub, (s) => /connections did reach this PC/.test(s.firewallHint ?? ''), 5000);
    const raw = net.connect(port!, '127.0.0.1', () => raw.end('GET / HTTP/1.0\r\n\r\n'));
    raw.on('error', () => undefined);
    await connection;
    // A PC that is not paired tries a run: refused, and the hint says so instead.
    const unpaired = nextStatus(hub, (s) => /not paired with this one did reach it/.test(s.firewallHint ?? ''), 5000);
    const params = { streams: 1, bufferBytes: 65536, windowBytes: null, bytes: 1 << 20, seconds: null, direction: 'forward' as const, intervalSeconds: 1 };
    const stranger = await startRun({ host: '127.0.0.1', port: port!, params, security: await strangerTrust() }).result;
    assert.equal(stranger.partial, true, 'the stranger is refused');
    assert.doesNotMatch((await unpaired).firewallHint!, /ufw/, 'no firewall step: connections do get through');
    // The paired partner runs: the hint goes at once and does not come back.
    const withdrawn = nextStatus(hub, (s) => s.firewallHint === null, 5000);
    const result = await startRun({ host: '127.0.0.1', port: port!, params, security: controller }).result;
    assert.equal(result.partial, false, result.partialReason ?? '');
    await withdrawn;
    assert.equal(host.current().firewallHint, null);
  });
});
