/** Test helpers: real sockets on 127.0.0.1, everything bounded in time. */
import net from 'node:net';
import tls from 'node:tls';
import { Responder, type ResponderOptions } from '../../electron/engine/session/responder.js';
import type { ControllerSecurity } from '../../electron/security/controller-security.js';
import { pairedTrust } from './trust.js';

/**
 * A responder on 127.0.0.1, port 0, paired with a fresh controller identity:
 * pass the returned `security` to `startRun`.
 */
export async function startResponder(opts: Partial<ResponderOptions> = {}): Promise<{ responder: Responder; port: number; security: ControllerSecurity }> {
  const trust = await pairedTrust();
  const responder = new Responder({ host: '127.0.0.1', port: 0, security: trust.responder, ...opts });
  const addr = await responder.listen();
  return { responder, port: addr.port, security: trust.controller };
}

/** Connect a raw socket to 127.0.0.1:port. */
export function rawConnect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
}

/** A TLS 1.3 control connection to 127.0.0.1:port presenting `security`'s certificate (no pinning: for raw protocol tests). */
export function tlsConnect(port: number, security: ControllerSecurity): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const s = tls.connect(
      {
        host: '127.0.0.1',
        port,
        cert: security.identity.certPem,
        key: security.identity.keyPem,
        minVersion: 'TLSv1.3',
        rejectUnauthorized: false,
        checkServerIdentity: () => undefined,
      },
      () => resolve(s),
    );
    s.once('error', reject);
  });
}

/** Collect everything a socket sends until it closes (or `ms` passes). */
export function readUntilClose(s: net.Socket, ms = 5000): Promise<{ data: Buffer; closed: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => resolve({ data: Buffer.concat(chunks), closed: false }), ms);
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('error', () => undefined);
    s.once('close', () => {
      clearTimeout(timer);
      resolve({ data: Buffer.concat(chunks), closed: true });
    });
  });
}

/** Reject after `ms` with a message naming what hung. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
    }),
  ]);
}
