/**
 * The two PCs finding and trusting each other, as the UI sees it: the connection check
 * (reachable, and paired or not), the Waiting screen's status (the pairing code, who was
 * turned away), the iperf3 answerer beside it, and the paired PCs. Part of the app
 * contract (api.ts re-exports every name, so channels and screens import from one place).
 */
import type { LonghaulErrorCode } from './error-codes.js';

export type ConnectionVerdict = 'reachable' | 'refused' | 'timed-out' | 'firewall-suspected' | 'unknown-host';

export interface ConnectionCheck {
  verdict: ConnectionVerdict;
  host: string;
  port: number;
  /** Time to the verdict, ms (the TCP connect time when reachable). */
  elapsedMs: number;
  /** What happened and what to do, for humans. */
  detail: string;
  /**
   * For a reachable Longhaul partner, whether this PC is paired with it (read from its TLS certificate,
   * electron/app/pairing-probe.ts); null for an iperf3 partner or an unreachable one.
   */
  pairing: PartnerPairing | null;
}

/** `paired`: its certificate is among this PC's peers (or is this PC's own); `unknown`: no Longhaul TLS answer to read. */
export type PairingState = 'paired' | 'not-paired' | 'unknown';

/** Who answered at the partner's address, as its TLS certificate says. */
export interface PartnerPairing {
  state: PairingState;
  /** The name this PC stored when pairing, else the name in its certificate; null when unknown. */
  name: string | null;
  /** SHA-256 of its certificate, lowercase hex; null when unknown. */
  fingerprint: string | null;
}

export interface ResponderStatus {
  state: 'stopped' | 'listening' | 'running';
  port: number | null;
  bind: string | null;
  addresses: string[];
  hostname: string;
  /** The controller of the run in progress, when running. */
  peer: string | null;
  runId: string | null;
  /** Why it stopped, when it failed to listen; while listening, a problem the partner will run into (e.g. the peers file cannot be read). */
  error: { code: LonghaulErrorCode; message: string } | null;
  /** Plain-words firewall advice, set when no partner has connected for a while (never a verdict: the OS does not say). */
  firewallHint: string | null;
  /** The one-time code a new controller types to pair (XXXX-XXXX-XXXX) while listening; null otherwise. */
  pairingCode: string | null;
  /** When `pairingCode` stops working (epoch ms); a fresh code replaces it then. Null when there is no code. */
  pairingCodeExpiresAt: number | null;
  /** This PC as a partner sees it when pairing: its name and short certificate fingerprint (`ABCD 1234 …`). Null when stopped. */
  thisPc: { name: string; fingerprint: string } | null;
  /** Controllers turned away while waiting, newest first, at most 10. */
  refused: RefusedAttempt[];
}

/** A controller the responder turned away, as the Waiting screen lists it. */
export interface RefusedAttempt {
  /** Not paired with this PC, a wrong pairing code, or its address locked out after too many wrong codes. */
  kind: 'not-paired' | 'wrong-code' | 'locked';
  /** When it last tried (ISO 8601). */
  at: string;
  /** Its address as people type it (an IPv4 partner without `::ffff:`). */
  address: string;
  /** The name it gave (host name, printable, bounded), or null. */
  name: string | null;
  /** Its certificate fingerprint, short form (`ABCD 1234 …`): what that PC shows as its own. */
  fingerprint: string;
  /** Tries folded into this line (same PC, address and reason). */
  count: number;
}

/** The Waiting screen's "also answer iperf3 clients" switch: an iperf3 server beside the responder (docs/iperf3.md). */
export interface Iperf3ServerStatus {
  state: 'stopped' | 'listening' | 'running';
  port: number | null;
  /** The iperf3 client of the test in progress, when running. */
  peer: string | null;
  /** The live run's id (its samples and end come on the responder's channels), when running. */
  runId: string | null;
  /** Why it is off (e.g. the port is in use); null when it was switched off or is on. */
  error: { code: LonghaulErrorCode; message: string } | null;
}

/** A responder found on the LAN by DNS-SD (Pair screen). */
export interface DiscoveredResponder {
  name: string;
  /** Addresses from the A/AAAA records (IPv4 first). */
  addresses: string[];
  port: number;
  /** The advertised certificate fingerprint (a hint: the TLS pin decides), or null. */
  fingerprint: string | null;
  /** True when that fingerprint is among this PC's paired peers. */
  paired: boolean;
}

/** A peer this PC is now paired with. */
export interface PairedPeer {
  name: string;
  /** SHA-256 of its certificate, lowercase hex. */
  fingerprint: string;
}

/** A PC this one is paired with, as the Partner step lists it (electron/security/peer-store.ts). */
export interface PairedPeerInfo {
  name: string;
  /** SHA-256 of its certificate, lowercase hex. */
  fingerprint: string;
  /** Where it was last seen (an address without port), or null. */
  address: string | null;
  /** ISO 8601. */
  pairedAt: string;
  /** ISO 8601: the last connection that showed its certificate. */
  lastSeen: string;
}
