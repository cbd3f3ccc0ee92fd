/**
 * This installation's identity: an ECDSA P-256 key pair and a self-signed
 * certificate, created on first start and kept in the trust folder as
 * owner-only files (private-files.ts; on Windows the folder's ACL, see
 * trust-dir.ts). Peers pin the SHA-256 fingerprint of the certificate; no
 * certificate authority is involved.
 */
import { createPrivateKey, webcrypto, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LonghaulError } from '../util/errors.js';
import { makePrivateDir, writePrivate } from './private-files.js';

type X509 = typeof import('@peculiar/x509');
// Node's webcrypto is the WebCrypto the library expects; only the DOM-typed names differ.
type X509Crypto = Parameters<X509['cryptoProvider']['set']>[0];
type X509Keys = Parameters<X509['X509CertificateGenerator']['createSelfSigned']>[0]['keys'];

let x509Load: Promise<X509> | null = null;
/** The certificate library is loaded only when an identity is created (once per installation), not on every start. */
function loadX509(): Promise<X509> {
  x509Load ??= (async () => {
    await import('reflect-metadata'); // @peculiar/x509's dependency injection needs it, before the library loads
    const x509 = await import('@peculiar/x509');
    x509.cryptoProvider.set(webcrypto as unknown as X509Crypto);
    return x509;
  })();
  return x509Load;
}

export interface Identity {
  /** The name peers see first (the host name at creation; a peer may rename it locally). */
  name: string;
  certPem: string;
  keyPem: string;
  /** SHA-256 of the certificate's DER, lowercase hex, 64 characters. */
  fingerprint: string;
}

const KEY_FILE = 'identity-key.pem';
const CERT_FILE = 'identity-cert.pem';
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** The fingerprint of a PEM or DER certificate, as `Identity.fingerprint`. */
export function fingerprintOf(cert: string | Buffer): string {
  return new X509Certificate(cert).fingerprint256.replace(/:/g, '').toLowerCase();
}

/** The CN of a certificate subject ("CN=lab-7\nO=Longhaul"): the name an identity shows; null without one. */
export function commonName(subject: string | undefined): string | null {
  return /(?:^|[\n,]\s*)CN=([^,\n]+)/.exec(subject ?? '')?.[1]?.trim() || null;
}

/** A fingerprint for people: the first 16 hex digits in groups of 4 (64 bits, enough to compare by eye). */
export function shortFingerprint(fp: string): string {
  return fp.slice(0, 16).toUpperCase().match(/.{4}/g)?.join(' ') ?? '';
}

/** A fresh identity in memory (nothing written). */
export async function createIdentity(name = os.hostname()): Promise<Identity> {
  const x509 = await loadX509();
  const keys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: `CN=${cnSafe(name)}, O=Longhaul`,
    notBefore: new Date(now - 24 * 3600_000),
    // Pinned by fingerprint, never checked against a CA: a long validity only avoids a needless re-pair.
    notAfter: new Date(now + 50 * 365 * 24 * 3600_000),
    signingAlgorithm: ALG,
    keys: keys as unknown as X509Keys,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const keyPem = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'pem', type: 'pkcs8' }).toString();
  const certPem = cert.toString('pem');
  return { name, certPem, keyPem, fingerprint: fingerprintOf(certPem) };
}

/**
 * Load the identity kept in `dir`, or create and save one as owner-only files
 * (on POSIX the folder is made 0700, also if it existed; load-trust.ts first
 * protects the folder as the OS allows).
 */
export async function loadOrCreateIdentity(dir: string, name = os.hostname()): Promise<Identity> {
  makePrivateDir(dir);
  const keyPath = path.join(dir, KEY_FILE);
  const certPath = path.join(dir, CERT_FILE);
  if (existsSync(keyPath) && existsSync(certPath)) {
    try {
      const keyPem = readFileSync(keyPath, 'utf8');
      const certPem = readFileSync(certPath, 'utf8');
      createPrivateKey(keyPem); // fails on a damaged file
      const cert = new X509Certificate(certPem);
      if (!cert.checkPrivateKey(createPrivateKey(keyPem))) throw new Error('the key does not match the certificate');
      const cn = commonName(cert.subject) ?? name;
      return { name: cn, certPem, keyPem, fingerprint: fingerprintOf(certPem) };
    } catch (err) {
      throw new LonghaulError(
        'LH_ERR_IDENTITY',
        `the identity in ${dir} is damaged (${(err as Error).message}): move that folder away to create a new one (every peer must then pair again)`,
      );
    }
  }
  const id = await createIdentity(name);
  writePrivate(keyPath, id.keyPem);
  writePrivate(certPath, id.certPem);
  return id;
}

function cnSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63) || 'longhaul';
}
