/** Test helpers: real sockets on 127.0.0.1, everything bounded in time. */
import net from 'node:net';
import { Responder, type ResponderOptions } from '../../electron/engine/responder.js';

/** A responder on 127.0.0.1, port 0. */
export async function startResponder(opts: ResponderOptions = {}): Promise<{ responder: Responder; port: number }> {
  const responder = new Responder({ host: '127.0.0.1', port: 0, ...opts });
  const addr = await responder.listen();
  return { responder, port: addr.port };
}

/** Connect a raw socket to 127.0.0.1:port. */
export function rawConnect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => resolve(s));
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
