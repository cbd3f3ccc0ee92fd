/** Test helpers for the socket addon: load it or fail loudly, and small socket plumbing. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { nativeSockets } from '../../electron/native/load-native.js';
import { NO_NATIVE_ENV } from '../../electron/native/switches.js';
import type { NativeApi } from '../../electron/native/native-api.js';

/**
 * The addon, or a failed assertion: on Linux with a compiler it must be built.
 * Only an explicit LONGHAUL_NO_NATIVE=1 turns the native tests into skips.
 */
export function requireNative(): NativeApi {
  const st = nativeSockets();
  assert.ok(st.api, `native addon unavailable: ${st.reason}`);
  return st.api;
}

/** Skip option for node:test when the addon was switched off on purpose. */
export const skipWithoutNative = process.env[NO_NATIVE_ENV] === '1' ? `${NO_NATIVE_ENV}=1` : false;

/** net.core.rmem_max / wmem_max: Linux caps SO_RCVBUF / SO_SNDBUF requests there. */
export function sysctlBytes(name: 'rmem_max' | 'wmem_max'): number {
  return Number(readFileSync(`/proc/sys/net/core/${name}`, 'utf8').trim());
}

/** A server on 127.0.0.1, port 0. */
export async function listenLocal(onConnection: (s: net.Socket) => void, opts: net.ServerOpts = {}): Promise<{ server: net.Server; port: number }> {
  const server = net.createServer(opts, onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { server, port: (server.address() as net.AddressInfo).port };
}

/** Write `total` bytes honouring backpressure; resolves when all are handed to the kernel. */
export async function writeBytes(socket: net.Socket, total: number, chunkBytes = 64 * 1024): Promise<void> {
  const chunk = Buffer.alloc(chunkBytes, 0x5a);
  for (let sent = 0; sent < total;) {
    const part = chunk.subarray(0, Math.min(chunkBytes, total - sent));
    sent += part.length;
    if (!socket.write(part)) await new Promise((r) => socket.once('drain', r));
  }
}

export function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
}
