/**
 * The controller's side of trust: dial TLS 1.3 with our certificate and pin
 * the responder's fingerprint against the paired peers (no CA, no host names).
 */
import type net from 'node:net';
import tls from 'node:tls';
import { LonghaulError, PeerError } from '../util/errors.js';
import { commonName, fingerprintOf, shortFingerprint, type Identity } from './identity.js';
import type { PeerStore } from './peer-store.js';

export interface ControllerSecurity {
  identity: Identity;
  peers: PeerStore;
  /** Trust a responder presenting our own certificate (same installation). Default true. */
  trustSelf?: boolean;
}

interface SecuredControl {
  socket: tls.TLSSocket;
  /** The responder's certificate fingerprint, as seen here. */
  fingerprint: string;
  /** The name in its certificate (its CN), null without one: read at the handshake, after which Node lets go of the certificate. */
  certName: string | null;
}

/**
 * Upgrade a connected socket to TLS 1.3. `mode: 'run'` refuses a responder
 * that is not a paired peer (`LH_ERR_NOT_PAIRED`) before a byte of the
 * protocol is sent; `mode: 'pair'` accepts any certificate (the pairing
 * proof authenticates it).
 */
export function secureControl(raw: net.Socket, target: string, sec: ControllerSecurity, mode: 'run' | 'pair', timeoutMs: number): Promise<SecuredControl> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      socket: raw,
      cert: sec.identity.certPem,
      key: sec.identity.keyPem,
      minVersion: 'TLSv1.3',
      // Authentication is the pinned fingerprint below, not a CA chain or a host name.
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
    });
    const timer = setTimeout(() => fail(new PeerError('LH_ERR_TIMEOUT', `${target} did not finish the TLS handshake within ${timeoutMs / 1000} s`)), timeoutMs);
    timer.unref?.();
    function fail(err: LonghaulError, gracefully = false): void {
      clearTimeout(timer);
      if (gracefully) {
        // A hang-up with the responder's session tickets unread is a TCP reset, and a reset loses our
        // certificate before the responder reads it: it could not tell its user which PC tried.
        socket.end();
        setTimeout(() => socket.destroy(), 2000).unref();
      } else {
        socket.destroy();
      }
      reject(err);
    }
    socket.once('error', (err: NodeJS.ErrnoException) => {
      const old = /wrong version number|packet length too long|unexpected eof/i.test(err.message);
      fail(
        new PeerError(
          'LH_ERR_TLS',
          old
            ? `${target} did not answer with TLS 1.3: it runs an older Longhaul (or is not Longhaul): install the same version on both PCs`
            : `TLS with ${target} failed: ${err.code ?? err.message}`,
        ),
      );
    });
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      socket.on('error', () => undefined); // the control channel reports later errors
      const cert = socket.getPeerX509Certificate();
      if (!cert) return fail(new PeerError('LH_ERR_TLS', `${target} presented no certificate`));
      const fingerprint = fingerprintOf(cert.raw);
      if (mode === 'run') {
        const self = (sec.trustSelf ?? true) && fingerprint === sec.identity.fingerprint;
        if (!self && !sec.peers.find(fingerprint)) {
          return fail(
            new PeerError(
              'LH_ERR_NOT_PAIRED',
              `the responder at ${target} (fingerprint ${shortFingerprint(fingerprint)}) is not paired with this PC: ` +
                `read the pairing code that \`longhaul listen\` prints there, then run \`longhaul pair ${target} --code CODE\` here`,
            ),
            true,
          );
        }
        sec.peers.seen(fingerprint, raw.remoteAddress ?? null);
      }
      resolve({ socket, fingerprint, certName: commonName(cert.subject) });
    });
  });
}
