/**
 * The one-time pairing code and the proofs built on it (docs/security.md).
 *
 * The code is 60 random bits as 12 Crockford base32 characters (XXXX-XXXX-XXXX).
 * A proof is HMAC-SHA256(K, role), K = scrypt(code, salt = SHA-256(transcript)),
 * where the transcript binds this TLS session (its exporter) and both
 * certificate fingerprints. A relay that terminates TLS on each side sees two
 * different transcripts, so a proof it forwards fails; a proof it keeps costs
 * 2^60 scrypt evaluations to turn back into the code.
 */
import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { ArgumentError } from '../util/errors.js';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford: no I, L, O, U
const CODE_CHARS = 12;
/** TLS exporter label; both ends derive the same 32 bytes from one TLS session only. */
export const EXPORTER_LABEL = 'EXPORTER-longhaul-pair/1';
/** scrypt cost: 2^14 × 8 × 128 B = 16 MiB and tens of ms per evaluation. */
const SCRYPT = { N: 1 << 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** A fresh code, formatted for people: `XXXX-XXXX-XXXX`. */
export function newPairingCode(): string {
  const bytes = randomBytes(8);
  let bits = bytes.readBigUInt64BE(0);
  let out = '';
  for (let i = 0; i < CODE_CHARS; i++) {
    out += ALPHABET[Number(bits & 31n)];
    bits >>= 5n;
  }
  return formatCode(out);
}

/** `ABCDEFGHJKMN` → `ABCD-EFGH-JKMN`. */
export function formatCode(normalized: string): string {
  return normalized.match(/.{1,4}/g)?.join('-') ?? '';
}

/**
 * A code as typed (any case, spaces or dashes, I/L for 1, O for 0) → its 12
 * canonical characters. Throws `LH_ERR_BAD_ARGUMENT` naming what is wrong.
 */
export function normalizeCode(input: string, flag = '--code'): string {
  const s = input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (s.length !== CODE_CHARS) {
    throw new ArgumentError(`a pairing code has ${CODE_CHARS} characters (like 7K3M-Q9TX-2HRB); "${input}" has ${s.length}`, flag);
  }
  const bad = [...s].find((c) => !ALPHABET.includes(c));
  if (bad) throw new ArgumentError(`"${bad}" cannot appear in a pairing code (letters and digits except U)`, flag);
  return s;
}

/** What both ends must agree on for a proof to match. */
interface PairingTranscript {
  /** 32 bytes from `tlsSocket.exportKeyingMaterial(32, EXPORTER_LABEL)`. */
  exporter: Buffer;
  controllerFingerprint: string;
  responderFingerprint: string;
}

/** The proof one role sends: hex HMAC-SHA256 under the code-derived key. */
export async function pairingProof(code: string, role: 'controller' | 'responder', t: PairingTranscript): Promise<string> {
  const salt = createHash('sha256')
    .update('longhaul-pair/1\0')
    .update(t.exporter)
    .update(t.controllerFingerprint)
    .update('\0')
    .update(t.responderFingerprint)
    .digest();
  const key = await new Promise<Buffer>((resolve, reject) => {
    scrypt(normalizeCode(code), salt, 32, SCRYPT, (err, k) => (err ? reject(err) : resolve(k)));
  });
  return createHmac('sha256', key).update(`longhaul-pair/1 ${role}`).digest('hex');
}

/** Constant-time comparison of two hex proofs. */
export function proofsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}
