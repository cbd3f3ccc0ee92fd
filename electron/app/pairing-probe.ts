/**
 * "Is this PC paired with the partner?", asked before a run: the controller's
 * TLS 1.3 handshake on an already connected socket, just far enough to read
 * the responder's certificate (fingerprint and name), then a clean close.
 *
 *   controller (probe)                     responder (secure-gate.ts)
 *     ── ClientHello ─────────────────────►
 *     ◄──────── ServerHello … Certificate ─   (its fingerprint and CN, read here)
 *     ── Certificate, Finished ───────────►
 *     ── close_notify, FIN ───────────────►   no first frame: closed quietly
 *
 * No frame is ever sent, so the responder never sees a run request or a
 * pairing attempt: nothing is refused, nothing counts against the pairing
 * guard, the one-time code stays open. The whole probe is bounded in time.
 */
import type net from 'node:net';
import type { PartnerPairing } from '../contract/api.js';
import { secureControl, type ControllerSecurity } from '../security/controller-security.js';
import { shortFingerprint } from '../security/identity.js';

/** The TLS handshake's budget after TCP connected: a few round trips, even over a satellite hop. */
const PROBE_TIMEOUT_MS = 4000;

/** What the probe found; when it could not tell (`unknown`), why, for the connection check's `detail`. */
interface ProbeOutcome {
  pairing: PartnerPairing;
  reason: string | null;
}

/**
 * Handshake on `raw` (connected, owned from here: it is always closed) and compare the
 * responder's certificate with `security`'s peers. Never rejects: a partner that does not
 * speak Longhaul's TLS, or too slowly, is `unknown` with the reason.
 */
export async function probePairing(raw: net.Socket, target: string, security: ControllerSecurity, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeOutcome> {
  let secured;
  try {
    // 'pair' mode accepts any certificate: the comparison with the peers is made below, without refusing.
    secured = await secureControl(raw, target, security, 'pair', timeoutMs);
  } catch (err) {
    raw.destroy();
    return { pairing: { state: 'unknown', name: null, fingerprint: null }, reason: `It did not answer as a Longhaul partner: ${(err as Error).message}.` };
  }
  const { socket, fingerprint, certName } = secured;
  // close_notify then FIN: the responder's gate sees a connection that ended before its first message.
  socket.end();
  setTimeout(() => socket.destroy(), 1000).unref();
  return judge(fingerprint, certName, raw.remoteAddress ?? null, security);
}

/** Paired, this PC itself, or a stranger; a peers file that cannot be read leaves it unknown. */
function judge(fingerprint: string, certName: string | null, address: string | null, security: ControllerSecurity): ProbeOutcome {
  if ((security.trustSelf ?? true) && fingerprint === security.identity.fingerprint) {
    // "Both on this PC", or a second Longhaul from the same installation: no pairing needed.
    return { pairing: { state: 'paired', name: `${security.identity.name} (this PC)`, fingerprint }, reason: null };
  }
  try {
    const peer = security.peers.find(fingerprint);
    if (!peer) return { pairing: { state: 'not-paired', name: certName, fingerprint }, reason: null };
    noteSeen(security, fingerprint, address);
    return { pairing: { state: 'paired', name: peer.name, fingerprint }, reason: null };
  } catch (err) {
    return {
      pairing: { state: 'unknown', name: certName, fingerprint },
      reason: `It is ${certName ?? 'a Longhaul PC'} (fingerprint ${shortFingerprint(fingerprint)}), but this PC's list of paired PCs cannot be read: ${(err as Error).message}`,
    };
  }
}

/** The handshake proved it holds that certificate's key: it was seen, at this address. A file that cannot be written changes no verdict. */
function noteSeen(security: ControllerSecurity, fingerprint: string, address: string | null): void {
  try {
    security.peers.seen(fingerprint, address?.replace(/^::ffff:/, '') ?? null);
  } catch {
    // The list said "paired"; last seen stays as it was.
  }
}
