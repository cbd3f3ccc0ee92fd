/**
 * The network facts several layers need: dialling a control connection with
 * errors a user can act on, this PC's own addresses, and `HOST[:PORT]` as typed.
 */
import net from 'node:net';
import os from 'node:os';
import { ArgumentError, PeerError } from './errors.js';

/** Open the control connection, mapping the OS's errors to ones a user can act on. */
export function dial(host: string, port: number, timeoutMs: number, localAddress?: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, ...(localAddress ? { localAddress } : {}) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new PeerError(
          'LH_ERR_TIMEOUT',
          `no answer from ${host}:${port} within ${timeoutMs / 1000} s: is a responder running there (longhaul listen), and does a firewall let port ${port} through?`,
        ),
      );
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (err.code === 'ECONNREFUSED') {
        reject(
          new PeerError(
            'LH_ERR_REFUSED',
            `${host}:${port} refused the connection: no responder is listening there (start one with: longhaul listen --port ${port})`,
          ),
        );
      } else {
        reject(new PeerError('LH_ERR_PEER_GONE', `cannot reach ${host}:${port}: ${err.code ?? err.message}`));
      }
    });
  });
}

/** This PC's addresses, so a user can read them off to the other laptop. */
export function localAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (!a.internal) out.push(a.address);
  }
  return out;
}

/** `::ffff:a.b.c.d` as `a.b.c.d`, so an IPv4 peer seen through a dual-stack socket compares equal (and reads as typed). */
export function plainAddress(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** `host`, `host:port`, `[v6]:port`. */
export function parseHostPort(text: string, defaultPort: number): { host: string; port: number } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:]+)(?::(\d+))?$/.exec(text);
  const m = v6 ?? plain;
  const host = m?.[1];
  const port = m?.[2] !== undefined ? Number(m[2]) : defaultPort;
  if (!m || !host || !(port >= 1 && port <= 65535)) {
    if (!m && text.split(':').length > 2) return { host: text, port: defaultPort }; // a bare IPv6 address
    throw new ArgumentError(`"${text}" is not HOST or HOST:PORT (port 1-65535)`, 'HOST');
  }
  return { host, port };
}
