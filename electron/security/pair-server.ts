/** The responder's half of the pairing exchange (see pair-messages.ts for the diagram). */
import os from 'node:os';
import type tls from 'node:tls';
import { LonghaulError, describeError } from '../util/errors.js';
import { parsePairRequest, type PairReply, type PairRequest } from './pair-messages.js';
import { EXPORTER_LABEL, pairingProof, proofsEqual } from './pairing-code.js';
import type { ResponderSecurity } from './responder-security.js';

/** Check one pair request; returns the reply to send. Never throws. */
export async function handlePairRequest(
  value: unknown,
  socket: tls.TLSSocket,
  controllerFingerprint: string,
  address: string,
  security: ResponderSecurity,
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
  if (!code)
    return refuse(
      'LH_ERR_PAIRING_CLOSED',
      'this responder is not accepting pairings now: on that PC, choose "Wait for a partner" (or run `longhaul listen`): it shows a fresh code; then try again',
    );
  const verdict = security.guard.check(address);
  if (!verdict.allowed) {
    security.noteRefused('locked', address, controllerFingerprint, req.name);
    return refuse(
      'LH_ERR_PAIRING_LOCKED',
      `too many wrong pairing codes from ${address}: pairing from there is locked for another ${Math.ceil(verdict.retryInMs / 1000)} s; check the code shown on the responder, then try again`,
    );
  }
  const own = security.identity.fingerprint;
  if (req.responderFingerprint !== own || req.controllerFingerprint !== controllerFingerprint) {
    // Costs the sender nothing to forge, so it counts against its address only, and the operator
    // hears of an address once: a real interceptor shows up, junk does not fill the screen.
    security.guard.fail(address);
    const message =
      'the two PCs see different certificates: something between them intercepts the connection (a man in the middle, a TLS-inspecting proxy or firewall). Pairing refused; connect the PCs without it';
    if (security.guard.firstWarning(address))
      security.emit(
        'pairing-failed',
        address,
        'LH_ERR_PAIRING_MITM',
        `${message} (further requests like this from ${address} are refused without a word here)`,
      );
    return { type: 'error', code: 'LH_ERR_PAIRING_MITM', message };
  }
  const outcome = await security.proofs.run(address, () => checkProof(req, socket, controllerFingerprint, address, security, code, refuse));
  if (outcome === 'busy')
    return refuse('LH_ERR_PAIRING_LOCKED', 'a pairing attempt from this address is already being checked, or too many are waiting: try again in a few seconds');
  return outcome;
}

async function checkProof(
  req: PairRequest,
  socket: tls.TLSSocket,
  controllerFingerprint: string,
  address: string,
  security: ResponderSecurity,
  code: string,
  refuse: (code: LonghaulError['code'], message: string) => PairReply,
): Promise<PairReply> {
  const own = security.identity.fingerprint;
  const transcript = { exporter: socket.exportKeyingMaterial(32, EXPORTER_LABEL, Buffer.alloc(0)), controllerFingerprint, responderFingerprint: own };
  // The code may have been used (or the address locked) while this request waited its turn.
  if (security.pairingCode !== code)
    return refuse(
      'LH_ERR_PAIRING_CLOSED',
      'the pairing code was used or ran out while this attempt waited: type the fresh code the other PC shows now (its "Wait for a partner" screen, or `longhaul listen`)',
    );
  const expected = await pairingProof(code, 'controller', transcript);
  if (!proofsEqual(expected, req.proof)) {
    const lockMs = security.guard.fail(address);
    security.noteRefused('wrong-code', address, controllerFingerprint, req.name);
    const tail =
      lockMs > 0
        ? `pairing from ${address} is now locked for ${Math.ceil(lockMs / 1000)} s`
        : `${security.guard.attemptsLeft(address)} attempt(s) left before a lockout`;
    return refuse('LH_ERR_PAIRING_CODE', `wrong pairing code (or something between the PCs intercepts the connection): ${tail}`);
  }
  security.guard.succeed();
  security.consumeCode();
  const record = security.peers.add(req.name, controllerFingerprint, address);
  security.emit('paired', record);
  return { type: 'pair-ok', name: security.identity.name || os.hostname(), proof: await pairingProof(code, 'responder', transcript) };
}
