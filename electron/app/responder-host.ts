/**
 * The "Wait for a partner" side of the app: one engine `Responder` the UI can
 * start and stop, whose runs are shown live and stored in History.
 */
import os from 'node:os';
import type { ResponderStatus } from '../contract/api.js';
import type { LonghaulResult } from '../contract/result.js';
import { localAddresses } from '../util/net.js';
import { MAX_STREAMS } from '../engine/params.js';
import { Responder } from '../engine/responder.js';
import type { ResponderSession } from '../engine/responder-session.js';
import { describeError } from '../util/errors.js';
import type { EventHub } from './event-hub.js';
import { FIREWALL_HINT_AFTER_MS, waitingFirewallHint } from './firewall-guidance.js';
import type { HistoryStore } from './history-store.js';
import { toLiveSample } from './live-sample.js';

/** Tunables of the firewall hint (tests shorten the wait and pick the OS). */
export interface ResponderHostOptions {
  /** Waiting this long with no partner shows the firewall hint. Default FIREWALL_HINT_AFTER_MS. */
  firewallHintAfterMs?: number;
  /** The OS whose firewall steps are shown. Default: this PC's. */
  platform?: NodeJS.Platform;
}
import type { LoadedTrust } from '../security/load-trust.js';
import { ResponderSecurity } from '../security/responder-security.js';

export class ResponderHost {
  private responder: Responder | null = null;
  private status: ResponderStatus = idle(null);
  private runCount = 0;
  private hintTimer: NodeJS.Timeout | null = null;

  private security: ResponderSecurity | null = null;

  constructor(
    private readonly hub: EventHub,
    private readonly history: HistoryStore,
    private readonly trust: () => Promise<LoadedTrust>,
    private readonly opts: ResponderHostOptions = {},
  ) {}

  current(): ResponderStatus {
    return this.status;
  }

  /** Listen (port 0 = any free port). Starting twice returns the running status. */
  async start(port: number, bind: string | null): Promise<ResponderStatus> {
    if (this.responder) return this.status;
    const trust = await this.trust();
    if (this.responder) return this.status;
    // Pairing is open while waiting: the code is shown on the Waiting screen, one use, renewed after each pairing.
    const security = new ResponderSecurity({ identity: trust.identity, peers: trust.peers });
    let pairingCode = security.openPairing();
    security.on('paired', () => {
      pairingCode = security.openPairing();
      this.set({ ...this.status, pairingCode });
    });
    // Paired partners are refused while the peers file cannot be read: say so on the Waiting screen, clear it once readable.
    security.on('trust-error', (message) =>
      this.set({ ...this.status, error: { code: 'LH_ERR_IDENTITY', message: `${message}; paired partners are refused until it can be read` } }),
    );
    this.security = security;
    // A controller opens all its data connections at once (up to 2 × 128 in bidir); the engine's
    // default cap of 32 unidentified connections turns part of that burst away and the run stalls.
    const responder = new Responder({ port, host: bind ?? undefined, maxPendingConnections: 2 * MAX_STREAMS + 8, security });
    this.responder = responder;
    try {
      const addr = await responder.listen();
      this.set({ ...idle(null), state: 'listening', port: addr.port, bind, pairingCode });
      this.armFirewallHint(addr.port);
    } catch (err) {
      this.responder = null;
      await responder.close();
      this.set(idle(describeError(err)));
      return this.status;
    }
    responder.on('session', (s) => this.onSession(s));
    responder.on('session-end', (result) => void this.onSessionEnd(result));
    return this.status;
  }

  /** Stop listening and end any run (its partial result still reaches History). Idempotent. */
  async stop(): Promise<ResponderStatus> {
    const r = this.responder;
    this.responder = null;
    this.disarmFirewallHint();
    this.security = null;
    if (r) await r.close();
    this.set(idle(null));
    return this.status;
  }

  /**
   * A partner that never arrives is what a blocking firewall looks like from here: after a
   * while with no session, say what to allow. Once any partner has connected, it never shows.
   */
  private armFirewallHint(port: number): void {
    const afterMs = this.opts.firewallHintAfterMs ?? FIREWALL_HINT_AFTER_MS;
    this.hintTimer = setTimeout(() => {
      this.hintTimer = null;
      if (this.status.state !== 'listening' || this.runCount > 0) return;
      this.set({ ...this.status, firewallHint: waitingFirewallHint(this.opts.platform ?? process.platform, port, afterMs) });
    }, afterMs);
    this.hintTimer.unref();
  }

  private disarmFirewallHint(): void {
    if (this.hintTimer) clearTimeout(this.hintTimer);
    this.hintTimer = null;
  }

  private onSession(s: ResponderSession): void {
    this.disarmFirewallHint();
    const runId = `responder-${++this.runCount}`;
    this.set({ ...this.status, state: 'running', peer: s.channel.remoteAddress, runId, firewallHint: null });
    s.on('sample', (sample, side) => {
      this.hub.emit('onResponderSample', toLiveSample(runId, side, sample, null));
    });
  }

  private async onSessionEnd(result: LonghaulResult | null): Promise<void> {
    const runId = this.status.runId ?? 'responder';
    if (this.responder) this.set({ ...this.status, state: 'listening', peer: null, runId: null });
    if (!result) return;
    const { savedPath, saveError } = await this.history.trySave(result);
    this.hub.emit('onResponderEnd', { runId, result, savedPath, saveError });
  }

  private set(s: ResponderStatus): void {
    this.status = s;
    this.hub.emit('onResponder', s);
  }
}

function idle(error: ResponderStatus['error']): ResponderStatus {
  return {
    state: 'stopped',
    port: null,
    bind: null,
    addresses: localAddresses(),
    hostname: os.hostname(),
    peer: null,
    runId: null,
    error,
    firewallHint: null,
    pairingCode: null,
  };
}
