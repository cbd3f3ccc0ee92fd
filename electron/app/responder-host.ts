/**
 * The "Wait for a partner" side of the app: one engine `Responder` the UI can
 * start and stop, whose runs are shown live and stored in History.
 */
import os from 'node:os';
import type { ResponderStatus } from '../contract/api.js';
import type { LonghaulResult } from '../contract/result.js';
import { localAddresses } from '../util/net.js';
import { MAX_STREAMS } from '../contract/limits.js';
import { Responder } from '../engine/session/responder.js';
import type { ResponderSession } from '../engine/session/responder-session.js';
import { shortFingerprint } from '../security/identity.js';
import type { LoadedTrust } from '../security/load-trust.js';
import { formatCode } from '../security/pairing-code.js';
import { PAIRING_CODE_TTL_MS, ResponderSecurity } from '../security/responder-security.js';
import type { EventHub } from './event-hub.js';
import { FIREWALL_HINT_AFTER_MS, WAITING_SEEN_ORDER, waitingFirewallHint, type WaitingSeen } from './firewall-guidance.js';
import type { HistoryStore } from './history-store.js';
import { listenFailure } from './listen-failure.js';
import { toLiveSample } from './live-sample.js';
import { RefusedLog } from './refused-log.js';

/** Tunables of the firewall hint and the pairing code (tests shorten the waits, pick the OS and the clock). */
export interface ResponderHostOptions {
  /** Waiting this long with no partner shows the firewall hint. Default FIREWALL_HINT_AFTER_MS. */
  firewallHintAfterMs?: number;
  /** The OS whose firewall steps are shown. Default: this PC's. */
  platform?: NodeJS.Platform;
  /** A pairing code is replaced by a fresh one this long after it was shown. Default PAIRING_CODE_TTL_MS. */
  pairingCodeTtlMs?: number;
  /** The clock of code expiry and refusal times. Default Date.now. */
  now?: () => number;
}

/** Who likely holds a busy responder port, and what to do: said on the Waiting screen. */
const PORT_IN_USE = { holder: 'another Longhaul or program is waiting there', fix: 'choose another port, e.g. 0 for any free one' };

export class ResponderHost {
  private responder: Responder | null = null;
  private status: ResponderStatus = idle(null);
  private runCount = 0;
  private hintTimer: NodeJS.Timeout | null = null;
  /** What has reached this responder since it started listening: the premise of the waiting hint. */
  private seen: WaitingSeen = 'nothing';
  /** When it started listening (epoch ms) and on which port: the hint's "in N s" and its firewall steps. */
  private listening: { sinceMs: number; port: number } | null = null;
  private codeTimer: NodeJS.Timeout | null = null;

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
    // Pairing is open while waiting: the code is shown on the Waiting screen, one use, renewed after
    // each pairing and when it expires.
    const now = this.opts.now ?? Date.now;
    const security = new ResponderSecurity(
      { identity: trust.identity, peers: trust.peers, pairingCodeTtlMs: this.opts.pairingCodeTtlMs ?? PAIRING_CODE_TTL_MS },
      now,
    );
    const refused = new RefusedLog(now);
    // A gate still finishing after Stop must not write into the stopped status: events count only from the current security.
    security.on('paired', (peer) => {
      if (this.security !== security) return;
      this.renewCode(security);
      this.set({ ...this.status, ...codeFields(security), refused: refused.forget(peer.fingerprint) });
      this.see('partner');
    });
    security.on('refused', (r) => {
      if (this.security !== security) return;
      this.set({ ...this.status, refused: refused.add(r) });
      this.see('unpaired');
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
      this.renewCode(security);
      const thisPc = { name: trust.identity.name || os.hostname(), fingerprint: shortFingerprint(trust.identity.fingerprint) };
      this.set({ ...idle(null), state: 'listening', port: addr.port, bind, thisPc, ...codeFields(security) });
      this.seen = 'nothing';
      this.listening = { sinceMs: now(), port: addr.port };
      this.armFirewallHint();
    } catch (err) {
      this.responder = null;
      this.security = null;
      await responder.close();
      this.set(idle(listenFailure(port, err, PORT_IN_USE)));
      return this.status;
    }
    responder.on('session', (s) => this.onSession(s));
    // Any connection turned away still reached this PC: no firewall dropped it.
    responder.on('rejected', () => this.responder === responder && this.see('connection'));
    responder.on('session-end', (result) => void this.onSessionEnd(result));
    return this.status;
  }

  /** Stop listening and end any run (its partial result still reaches History). Idempotent. */
  async stop(): Promise<ResponderStatus> {
    const r = this.responder;
    this.responder = null;
    this.listening = null;
    this.disarmFirewallHint();
    if (this.codeTimer) clearTimeout(this.codeTimer);
    this.codeTimer = null;
    this.security = null;
    if (r) await r.close();
    this.set(idle(null));
    return this.status;
  }

  /**
   * A partner that never arrives is what a blocking firewall looks like from here: after a while with no
   * partner, say what was seen and what to do. Once a partner has paired or connected, it never shows.
   */
  private armFirewallHint(): void {
    const afterMs = this.opts.firewallHintAfterMs ?? FIREWALL_HINT_AFTER_MS;
    this.hintTimer = setTimeout(() => {
      this.hintTimer = null;
      if (this.status.state !== 'listening') return;
      this.set({ ...this.status, firewallHint: this.hintText() });
    }, afterMs);
    this.hintTimer.unref();
  }

  /** The waiting hint for what has been seen so far (null once a partner came). */
  private hintText(): string | null {
    if (!this.listening) return null;
    const now = this.opts.now ?? Date.now;
    return waitingFirewallHint(this.seen, this.opts.platform ?? process.platform, this.listening.port, now() - this.listening.sinceMs);
  }

  /** A new fact about who reached this PC: a shown hint follows it at once (withdrawn once a partner came). */
  private see(what: WaitingSeen): void {
    if (WAITING_SEEN_ORDER.indexOf(what) <= WAITING_SEEN_ORDER.indexOf(this.seen)) return;
    this.seen = what;
    if (what === 'partner') this.disarmFirewallHint();
    if (this.status.firewallHint !== null) this.set({ ...this.status, firewallHint: this.hintText() });
  }

  /**
   * Show a fresh code and replace it when it expires, for as long as this responder waits: an
   * expired code is refused (ResponderSecurity checks on every read), so the screen must never show one.
   */
  private renewCode(security: ResponderSecurity): void {
    if (this.codeTimer) clearTimeout(this.codeTimer);
    security.openPairing();
    const expiresAt = security.pairingCodeExpiresAt;
    if (expiresAt === null) return;
    const now = this.opts.now ?? Date.now;
    this.codeTimer = setTimeout(
      () => {
        this.codeTimer = null;
        if (this.security !== security) return;
        this.renewCode(security);
        this.set({ ...this.status, ...codeFields(security) });
      },
      Math.max(0, expiresAt - now()),
    );
    this.codeTimer.unref();
  }

  private disarmFirewallHint(): void {
    if (this.hintTimer) clearTimeout(this.hintTimer);
    this.hintTimer = null;
  }

  private onSession(s: ResponderSession): void {
    this.see('partner');
    const runId = `responder-${++this.runCount}`;
    this.set({ ...this.status, state: 'running', peer: s.channel.remoteAddress, runId, firewallHint: null });
    s.on('sample', (sample, side) => {
      this.hub.emit('onResponderSample', toLiveSample(runId, side, sample, null));
    });
  }

  private async onSessionEnd(result: LonghaulResult | null): Promise<void> {
    const runId = this.status.runId ?? 'responder';
    if (this.responder) this.set({ ...this.status, state: 'listening', peer: null, runId: null });
    // The controller's path measurement after its run (--capacity) is no run of the user's: not in History.
    if (!result || result.params.purpose === 'path-capacity') return;
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
    pairingCodeExpiresAt: null,
    thisPc: null,
    refused: [],
  };
}

/** The code as shown (XXXX-XXXX-XXXX) and when it runs out. */
function codeFields(security: ResponderSecurity): Pick<ResponderStatus, 'pairingCode' | 'pairingCodeExpiresAt'> {
  const code = security.pairingCode;
  return { pairingCode: code ? formatCode(code) : null, pairingCodeExpiresAt: code ? security.pairingCodeExpiresAt : null };
}
