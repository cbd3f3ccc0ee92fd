/** Proxy test helpers: real sockets on 127.0.0.1 port 0, everything bounded in time and cleaned up. */
import { createHash } from 'node:crypto';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { LinkProxy } from '../../electron/proxy/link-proxy.js';
import { parseLinkSpec } from '../../electron/proxy/link-settings.js';
import { chooseRelay, type RelayChoice } from '../../electron/proxy/relay-mode.js';

interface Arrival {
  /** ms since the connection was accepted */
  tMs: number;
  bytes: number;
}

/** A target that records every byte's arrival time, hashes the stream, and ends when the client ends. */
interface SinkTarget {
  port: number;
  server: net.Server;
  /** Resolves per accepted connection when its stream ends. */
  next(): Promise<{ bytes: number; sha256: string; arrivals: Arrival[]; acceptedAt: number }>;
  close(): Promise<void>;
}

export async function startSink(): Promise<SinkTarget> {
  const waiting: ((r: Awaited<ReturnType<SinkTarget['next']>>) => void)[] = [];
  const done: Awaited<ReturnType<SinkTarget['next']>>[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    const acceptedAt = performance.now();
    const hash = createHash('sha256');
    const arrivals: Arrival[] = [];
    let bytes = 0;
    s.on('data', (d: Buffer) => {
      hash.update(d);
      bytes += d.length;
      arrivals.push({ tMs: performance.now() - acceptedAt, bytes: d.length });
    });
    s.on('error', () => undefined);
    s.on('end', () => {
      s.end();
      const r = { bytes, sha256: hash.digest('hex'), arrivals, acceptedAt };
      const w = waiting.shift();
      if (w) w(r);
      else done.push(r);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    server,
    next: () =>
      new Promise((resolve) => {
        const r = done.shift();
        if (r) resolve(r);
        else waiting.push(resolve);
      }),
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A target that echoes everything back and half-closes when the client does. */
export async function startEcho(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: true }, (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    s.pipe(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Both byte movers, for tests that must hold on either; `skip` says why one cannot run here. */
export const RELAYS: { name: string; relay: RelayChoice; skip: string | false }[] = [
  { name: 'JavaScript relay', relay: { kind: 'js', reason: 'test', api: null }, skip: false },
  (() => {
    const native = chooseRelay({}, process.platform);
    return { name: 'native relay thread', relay: native, skip: native.kind === 'native' ? false : `no native relay here: ${native.reason}` };
  })(),
];

/** A proxy on 127.0.0.1:0 in front of `targetPort`, from settings or chain JSON; `relay`: this PC's default mover unless given. */
export async function startProxy(targetPort: number, link: unknown, relay?: RelayChoice): Promise<{ proxy: LinkProxy; port: number }> {
  const proxy = new LinkProxy({ target: { host: '127.0.0.1', port: targetPort }, link: parseLinkSpec(link), relay });
  const { port } = await proxy.listen();
  return { proxy, port };
}

/** Connect to 127.0.0.1:port. */
export function connect(port: number, allowHalfOpen = false): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port, allowHalfOpen }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Deterministic pseudo-random bytes (so a test can hash what it sent). */
export function patternBuffer(bytes: number, seed = 1): Buffer {
  const b = Buffer.alloc(bytes);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < bytes; i += 4) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    b.writeUInt32LE(x, i);
  }
  return b;
}

/** Write `data` `times` times with backpressure, then end. Resolves when all is handed to the kernel. */
export function sendAll(s: net.Socket, data: Buffer, times = 1, chunkBytes = 64 * 1024): Promise<void> {
  return new Promise((resolve, reject) => {
    let round = 0;
    let off = 0;
    s.once('error', reject);
    const pump = (): void => {
      while (round < times) {
        const chunk = data.subarray(off, off + chunkBytes);
        off += chunk.length;
        if (off >= data.length) {
          off = 0;
          round++;
        }
        if (!s.write(chunk)) return void s.once('drain', pump);
      }
      s.end(() => resolve());
    };
    pump();
  });
}

/** Received bits per second between the first and the last arrival. */
export function arrivalRate(arrivals: Arrival[]): number {
  const first = arrivals[0]!;
  const last = arrivals[arrivals.length - 1]!;
  const bytes = arrivals.slice(1).reduce((a, x) => a + x.bytes, 0);
  return (bytes * 8 * 1000) / (last.tMs - first.tMs);
}

export function sha256(b: Buffer, times = 1): string {
  const h = createHash('sha256');
  for (let i = 0; i < times; i++) h.update(b);
  return h.digest('hex');
}
