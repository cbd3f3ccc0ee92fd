/**
 * The responder's door for control connections: TLS 1.3 with the client's
 * certificate, then one of three outcomes for the first message:
 *  - `pair` → the pairing exchange (pair-server.ts), then the connection ends;
 *  - anything else from a trusted fingerprint → handed to a run session;
 *  - anything else from a stranger → `LH_ERR_NOT_PAIRED`, closed.
 * The caller bounds the whole door with one deadline.
 */
import type net from 'node:net';
import tls from 'node:tls';
import { encodeFrame } from '../protocol/framing.js';
import { answerAndClose } from '../util/answer-and-close.js';
import { LonghaulError } from '../util/errors.js';
import { readFirstFrame } from './first-frame.js';
import { commonName, fingerprintOf, shortFingerprint } from './identity.js';
import { handlePairRequest } from './pair-server.js';
import type { ResponderSecurity } from './responder-security.js';

type GateOutcome = { kind: 'run'; socket: tls.TLSSocket; firstBytes: Buffer; fingerprint: string } | { kind: 'closed'; reason: string };

/** A TLS record of type handshake (0x16) opens every TLS connection. */
export function looksLikeTls(firstBytes: Buffer): boolean {
  return firstBytes.length > 0 && firstBytes[0] === 0x16;
}

/**
 * Whether the bytes hold a whole first TLS record (5-byte header, then as many bytes as it says): a
 * client's ClientHello arrives whole, a stalling attacker's fragment does not.
 */
export function holdsWholeTlsRecord(firstBytes: Buffer): boolean {
  return looksLikeTls(firstBytes) && firstBytes.length >= 5 && firstBytes.length >= 5 + firstBytes.readUInt16BE(3);
}

/** `onSecure` is told when the TLS handshake is done (the pending pool ranks such a connection above one still in it). */
export async function passGate(
  raw: net.Socket,
  firstBytes: Buffer,
  security: ResponderSecurity,
  timeoutMs: number,
  onSecure: () => void = () => undefined,
): Promise<GateOutcome> {
  const deadline = Date.now() + timeoutMs;
  // The sorter already read the ClientHello's first bytes: put them back; TLSSocket feeds a
  // socket's buffered bytes to its TLS engine before reading the handle.
  raw.unshift(firstBytes);
  const socket = new tls.TLSSocket(raw, { isServer: true, secureContext: security.secureContext, requestCert: true, rejectUnauthorized: false });
  socket.on('error', () => undefined); // outcomes below say what happened
  const address = raw.remoteAddress ?? 'unknown';
  const handshake = await secured(socket, deadline - Date.now());
  if (handshake) {
    socket.destroy();
    return { kind: 'closed', reason: handshake };
  }
  onSecure();
  if (socket.getProtocol() !== 'TLSv1.3') return refuse(socket, new LonghaulError('LH_ERR_TLS', 'TLS 1.3 is required'));
  const cert = socket.getPeerX509Certificate();
  if (!cert) return refuse(socket, new LonghaulError('LH_ERR_NOT_PAIRED', 'the controller presented no certificate: pair it first (longhaul pair)'));
  const fingerprint = fingerprintOf(cert.raw);
  const first = await readFirstFrame(socket, deadline - Date.now());
  if (!first.ok) {
    if (first.error) return refuse(socket, first.error);
    // A controller that does not know this responder hangs up right after TLS, before a word of the
    // protocol: from here, that is what a PC that still needs the pairing code looks like.
    if (!security.isTrusted(fingerprint)) security.noteRefused('not-paired', address, fingerprint, commonName(cert.subject));
    socket.destroy();
    return { kind: 'closed', reason: 'closed before its first message' };
  }
  if (first.message.type === 'pair') {
    const reply = await handlePairRequest(first.message, socket, fingerprint, address, security);
    answerAndClose(socket, encodeFrame(reply));
    return { kind: 'closed', reason: reply.type === 'pair-ok' ? `paired with ${reply.name}` : `pairing refused: ${reply.message}` };
  }
  if (!security.isTrusted(fingerprint)) {
    // A hello carries the PC's host name; without one, its certificate names it.
    const hostname = first.message.type === 'hello' ? first.message.hostname : undefined;
    security.noteRefused('not-paired', address, fingerprint, typeof hostname === 'string' && hostname.trim() ? hostname : commonName(cert.subject));
    return refuse(
      socket,
      new LonghaulError(
        'LH_ERR_NOT_PAIRED',
        `this responder (${security.identity.name}, fingerprint ${shortFingerprint(security.identity.fingerprint)}) is not paired with this PC ` +
          `(fingerprint ${shortFingerprint(fingerprint)}): pair first with the code the responder shows (its "Wait for a partner" screen, or what \`longhaul listen\` prints): ` +
          `type it here when asked, or run \`longhaul pair HOST:PORT --code CODE\``,
      ),
    );
  }
  security.noteSeen(fingerprint, address);
  return { kind: 'run', socket, firstBytes: first.raw, fingerprint };
}

/** Resolve with null once TLS is up, or with the reason it is not. */
function secured(socket: tls.TLSSocket, ms: number): Promise<string | null> {
  return new Promise((resolve) => {
    const done = (why: string | null): void => {
      clearTimeout(timer);
      socket.off('secure', onSecure);
      socket.off('error', onError);
      socket.off('close', onClose);
      resolve(why);
    };
    const timer = setTimeout(() => done(`TLS handshake not finished in time`), Math.max(1, ms));
    timer.unref?.();
    const onSecure = (): void => done(null);
    const onError = (err: Error): void => done(`TLS handshake failed: ${err.message}`);
    const onClose = (): void => done('closed during the TLS handshake');
    socket.once('secure', onSecure);
    socket.once('error', onError);
    socket.once('close', onClose);
  });
}

/** Refuse with an error frame; the socket goes once it is flushed. */
function refuse(socket: tls.TLSSocket, err: LonghaulError): GateOutcome {
  answerAndClose(socket, encodeFrame({ type: 'error', code: err.code, message: err.message }));
  return { kind: 'closed', reason: `${err.code}: ${err.message}` };
}
