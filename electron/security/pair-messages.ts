/**
 * The pairing exchange, inside TLS 1.3 (both ends present their certificates):
 *
 *   controller                                        responder
 *   pair {name, controllerFp, responderFp, proof_c} ──▶  lockout? fingerprints as seen here?
 *                                                        proof_c right? → remember controller
 *                                 ◀── pair-ok {name, proof_r} | error {code, message}
 *   proof_r right? → remember responder
 *
 * Fingerprints are the ones each end *sees*; proofs are `pairingProof()` over
 * the TLS exporter and both fingerprints. The responder proves only after the
 * controller did, so a stranger who connects learns nothing but "wrong".
 */
import { z } from 'zod';
import { peerText } from '../protocol/peer-text.js';
import { ProtocolError } from '../util/errors.js';
import { printable } from '../util/printable.js';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

const pairRequestSchema = z
  .object({
    type: z.literal('pair'),
    protocol: z.literal(1),
    name: peerText(255).refine((x) => x.length > 0, 'empty name'),
    controllerFingerprint: hex64,
    responderFingerprint: hex64,
    proof: hex64,
  })
  .strict();

const pairReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pair-ok'), name: peerText(255).refine((x) => x.length > 0, 'empty name'), proof: hex64 }).strict(),
  z.object({
    type: z.literal('error'),
    code: z
      .string()
      .regex(/^LH_ERR_[A-Z_]+$/)
      .max(64),
    message: peerText(1000),
  }),
]);

export type PairRequest = z.infer<typeof pairRequestSchema>;
export type PairReply = z.infer<typeof pairReplySchema>;

/** Validate a decoded frame as a pair request; a `ProtocolError` names the first bad field. */
export function parsePairRequest(value: unknown): PairRequest {
  const r = pairRequestSchema.safeParse(value);
  if (!r.success) throw new ProtocolError('LH_ERR_BAD_MESSAGE', `invalid pair message: ${printable(r.error.issues[0]?.path.join('.') || 'message', 200)}`);
  return r.data;
}

export function parsePairReply(value: unknown): PairReply {
  const r = pairReplySchema.safeParse(value);
  if (!r.success) throw new ProtocolError('LH_ERR_BAD_MESSAGE', `invalid pairing reply: ${printable(r.error.issues[0]?.path.join('.') || 'message', 200)}`);
  return r.data;
}
