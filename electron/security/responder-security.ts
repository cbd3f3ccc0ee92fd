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
import { plainAddress } from '../util/net.js';
import { printable } from '../util/printable.js';

/**
 * How long a pairing code shown while waiting stays valid. A code on a screen can be read by
 * anyone passing by, and the lockout guard limits guessing, not reading: a code left up all day
 * is an open door all day. Ten minutes is ample to walk to the other PC and type 12 characters;
 * the app shows a fresh code when it runs out, so waiting longer costs the user nothing.
 */
export const PAIRING_CODE_TTL_MS = 10 * 60_000;

/** A PC's name from the network is shown in one line of the Waiting screen: a host name fits (63 characters), a paragraph does not. */
export const REFUSED_NAME_MAX_CHARS = 64;

/** Why a controller was turned away: not paired, a wrong pairing code, or its address locked after too many wrong codes. */
type RefusalKind = 'not-paired' | 'wrong-code' | 'locked';

/** One controller turned away, as the 'refused' event tells it (name printable and bounded, address without `::ffff:`). */
export interface Refusal {
  kind: RefusalKind;
  address: string;
  /** The name the controller gave (its hello's host name, its pair request's name or its certificate's), or null. */
  name: string | null;
  /** Its certificate's SHA-256 fingerprint, 64 hex digits. */
  fingerprint: string;
}

export interface ResponderSecurityOptions {
  identity: Identity;
  peers: PeerStore;
  /** Open pairing at once with this code (scripts: `listen --pairing-code`); null = closed. */
  pairingCode?: string | null;
  guard?: Partial<PairingGuardOptions>;
  /** A code opened here is refused this long after it was opened (the app: PAIRING_CODE_TTL_MS). Default null: valid until used or closed. */
  pairingCodeTtlMs?: number | null;
  /**
   * Trust a controller that presents this installation's own certificate
   * (same key = same installation, e.g. `listen` and `run` from one data
   * folder). Default true.
   */
  trustSelf?: boolean;
}

interface ResponderSecurityEvents {
  paired: [PeerRecord];
  /** A pairing attempt failed: peer address, error code, message. */
  'pairing-failed': [string, string, string];
  /** The peers file could not be read: every controller counts as a stranger until it can. */
  'trust-error': [string];
  /** A controller was turned away (not paired, wrong code, locked): the Waiting screen lists it. */
  refused: [Refusal];
}

export class ResponderSecurity extends EventEmitter<ResponderSecurityEvents> {
  readonly identity: Identity;
  readonly peers: PeerStore;
  readonly guard: PairingGuard;
  readonly secureContext: tls.SecureContext;
  private code: string | null = null;
  /** When the open code stops being accepted (epoch ms), or null when it does not expire. */
  private codeExpiresAt: number | null = null;
  private readonly codeTtlMs: number | null;
  /** Pairing proofs, checked one at a time, each address waiting its turn. */
  readonly proofs = new ProofQueue();
  private readonly trustSelf: boolean;
  private lastTrustError: string | null = null;

  constructor(
    opts: ResponderSecurityOptions,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.codeTtlMs = opts.pairingCodeTtlMs ?? null;
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
    this.codeExpiresAt = this.codeTtlMs === null ? null : this.now() + this.codeTtlMs;
    return formatCode(this.code);
  }

  closePairing(): void {
    this.code = null;
    this.codeExpiresAt = null;
  }

  /** The active code (canonical form), or null when pairing is closed or the code has expired. */
  get pairingCode(): string | null {
    // Checked on every read, not only by a timer: an expired code is refused even if nobody renewed it.
    if (this.codeExpiresAt !== null && this.now() >= this.codeExpiresAt) return null;
    return this.code;
  }

  /** When the active code expires (epoch ms); null when pairing is closed or the code does not expire. */
  get pairingCodeExpiresAt(): number | null {
    return this.pairingCode === null ? null : this.codeExpiresAt;
  }

  /**
   * Tell the operator a controller was turned away. The name comes from the network: it is made
   * printable and bounded here, once, for every listener.
   */
  noteRefused(kind: RefusalKind, address: string, fingerprint: string, name: unknown): void {
    const text = typeof name === 'string' ? printable(name.trim(), REFUSED_NAME_MAX_CHARS) : '';
    this.emit('refused', { kind, address: plainAddress(address), name: text || null, fingerprint });
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
      const plain = plainAddress(address);
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
    this.closePairing();
  }
}
