/** The responder's half of the pairing exchange (see pair-messages.ts for the diagram). */
import os from 'node:os';
import type tls from 'node:tls';
import { LonghaulError, describeError } from '../util/errors.js';
import { parsePairRequest, type PairReply, type PairRequest } from './pair-messages.js';
import { EXPORTER_LABEL, pairingProof, proofsEqual } from './pairing-code.js';
import type { ResponderSecurity } from './responder-security.js';

/** Check one pair request; returns the reply to send. Never throws. */
export async function handlePairRequest(
  value: unknown, socket: tls.TLSSocket, controllerFingerprint: string, address: string, security: ResponderSecurity,
): Promise<PairReply> {
  const refuse = (code: LonghaulError['code'], message: string): PairReply => {
    security.emit('pairing-failed', address, code, message);
    return { type: 'error', code, message };
  };
  let req;
  try {
    req = parsePairRequest(value);
  } catch (err) {
    const e = describeError(err);
    return refuse(e.code, e.message);
  }
  const code = security.pairingCode;
  if (!code) return refuse('LH_ERR_PAIRING_CLOSED', 'this responder is not accepting pairings now: start `longhaul listen` there (it prints a fresh code) and try again');
  const verdict = security.guard.check();
  if (!verdict.allowed) {
    return refuse('LH_ERR_PAIRING_LOCKED', `too many wrong pairing codes: pairing is locked for another ${Math.ceil(verdict.retryInMs / 1000)} s; check the code shown on the responder, then try again`);
  }
  const own = security.identity.fingerprint;
  if (req.responderFingerprint !== own || req.controllerFingerprint !== controllerFingerprint) {
    security.guard.fail();
    return refuse('LH_ERR_PAIRING_MITM',
      'the two PCs see different certificates: something between them intercepts the connection (a man in the middle, a TLS-inspecting proxy or firewall). Pairing refused; connect the PCs without it');
  }
  // One check at a time: parallel guesses must not all pass the guard before the first one fails.
  if (security.pairingInFlight) return refuse('LH_ERR_PAIRING_LOCKED', 'another pairing attempt is being checked: try again in a second');
  security.pairingInFlight = true;
  try {
    return await checkProof(req, socket, controllerFingerprint, address, security, code, refuse);
  } finally {
    security.pairingInFlight = false;
  }
}

async function checkProof(
  req: PairRequest, socket: tls.TLSSocket, controllerFingerprint: string, address: string, security: ResponderSecurity,
  code: string, refuse: (code: LonghaulError['code'], message: string) => PairReply,
): Promise<PairReply> {
  const own = security.identity.fingerprint;
  const transcript = { exporter: socket.exportKeyingMaterial(32, EXPORTER_LABEL, Buffer.alloc(0)), controllerFingerprint, responderFingerprint: own };
  const expected = await pairingProof(code, 'controller', transcript);
  if (!proofsEqual(expected, req.proof)) {
    const lockMs = security.guard.fail();
    const tail = lockMs > 0 ? `pairing is now locked for ${Math.ceil(lockMs / 1000)} s` : `${security.guard.attemptsLeft} attempt(s) left before a lockout`;
    return refuse('LH_ERR_PAIRING_CODE', `wrong pairing code (or something between the PCs intercepts the connection): ${tail}`);
  }
  security.guard.succeed();
  security.consumeCode();
  const record = security.peers.add(req.name, controllerFingerprint, address);
  security.emit('paired', record);
  return { type: 'pair-ok', name: security.identity.name || os.hostname(), proof: await pairingProof(code, 'responder', transcript) };
}
