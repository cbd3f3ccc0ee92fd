/**
 * What a responder trusts: its identity, its paired peers, and (while pairing
 * is open) the one-time code with its lockout guard. Emits what happened so
 * the CLI and the app can tell the user.
 */
import { EventEmitter } from 'node:events';
import tls from 'node:tls';
import type { Identity } from './identity.js';
import { formatCode, newPairingCode, normalizeCode } from './pairing-code.js';
import { PairingGuard, type PairingGuardOptions } from './pairing-guard.js';
import { ProofQueue } from './proof-queue.js';
import type { PeerRecord, PeerStore } from './peer-store.js';

export interface ResponderSecurityOptions {
  identity: Identity;
  peers: PeerStore;
  /** Open pairing at once with this code (scripts: `listen --pairing-code`); null = closed. */
  pairingCode?: string | null;
  guard?: Partial<PairingGuardOptions>;
  /**
   * Trust a controller that presents this installation's own certificate
   * (same key = same installation, e.g. `listen` and `run` from one data
   * folder). Default true.
   */
  trustSelf?: boolean;
}

export interface ResponderSecurityEvents {
  paired: [PeerRecord];
  /** A pairing attempt failed: peer address, error code, message. */
  'pairing-failed': [string, string, string];
  /** The peers file could not be read: every controller counts as a stranger until it can. */
  'trust-error': [string];
}

export class ResponderSecurity extends EventEmitter<ResponderSecurityEvents> {
  readonly identity: Identity;
  readonly peers: PeerStore;
  readonly guard: PairingGuard;
  readonly secureContext: tls.SecureContext;
  private code: string | null = null;
  /** Pairing proofs, checked one at a time, each address waiting its turn. */
  readonly proofs = new ProofQueue();
  private readonly trustSelf: boolean;
  private lastTrustError: string | null = null;

  constructor(opts: ResponderSecurityOptions, now: () => number = Date.now) {
    super();
    this.identity = opts.identity;
    this.peers = opts.peers;
    this.trustSelf = opts.trustSelf ?? true;
    this.guard = new PairingGuard(opts.guard, now);
    this.secureContext = tls.createSecureContext({ cert: opts.identity.certPem, key: opts.identity.keyPem, minVersion: 'TLSv1.3' });
    if (opts.pairingCode) this.openPairing(opts.pairingCode);
  }

  /** Accept one pairing with `code` (a fresh random one if omitted); returns it formatted. */
  openPairing(code?: string): string {
    this.code = code ? normalizeCode(code, '--pairing-code') : normalizeCode(newPairingCode());
    return formatCode(this.code);
  }

  closePairing(): void {
    this.code = null;
  }

  /** The active code (canonical form), or null when pairing is closed. */
  get pairingCode(): string | null {
    return this.code;
  }

  /**
   * Never throws: a stranger's first message calls this, and a failure here must not reach the
   * responder's process (it runs inside the app too). A peers file that cannot be read means
   * "not trusted", said once per distinct problem through 'trust-error'.
   */
  isTrusted(fingerprint: string): boolean {
    if (this.trustSelf && fingerprint === this.identity.fingerprint) return true;
    try {
      const found = this.peers.find(fingerprint) !== undefined;
      this.lastTrustError = null;
      return found;
    } catch (err) {
      const message = (err as Error).message;
      if (message !== this.lastTrustError) this.emit('trust-error', message);
      this.lastTrustError = message;
      return false;
    }
  }

  /** Whether a paired peer was last seen at `address` (its connections get a reserve while they authenticate). Never throws. */
  isPeerAddress(address: string): boolean {
    try {
      const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
      return this.peers.list().some((p) => p.address === plain || p.address === address);
    } catch {
      return false;
    }
  }

  /** Note an authenticated connection; a peers file that cannot be written must not end the run. */
  noteSeen(fingerprint: string, address: string | null): void {
    try {
      this.peers.seen(fingerprint, address);
    } catch (err) {
      this.emit('trust-error', `could not note the peer as seen: ${(err as Error).message}`);
    }
  }

  /** The code was used: it is one-time. */
  consumeCode(): void {
    this.code = null;
  }
}
