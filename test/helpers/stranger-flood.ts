/**
 * Attackers for the responder's connection-accepting path, all on loopback:
 * Linux routes every 127.x address to lo, so `localAddress` gives each
 * attacker its own source address. Every helper stops (and destroys what it
 * opened) when its `stop()` is called; tests call it in a `finally`.
 */
import net from 'node:net';

/** The first bytes of a TLS ClientHello (record header and the handshake's start), then nothing more. */
const PARTIAL_HELLO = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]);

interface Flood {
  /** Connections the responder ended so far. */
  dropped(): number;
  /** Connections opened so far. */
  opened(): number;
  stop(): void;
}

/** `count` stranger addresses from 127.0.0.2 upward. */
export function strangerAddresses(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `127.0.${Math.floor((i + 2) / 256)}.${(i + 2) % 256}`);
}

/** A never-used source address per call, from 127.1.0.1 upward (an attacker with a large IPv6 prefix has as many). */
function freshAddresses(): () => string {
  let n = 0;
  return () => {
    const i = n++ % 60_000;
    return `127.${1 + Math.floor(i / 65_024)}.${Math.floor(i / 254) % 256}.${(i % 254) + 1}`;
  };
}

/**
 * Hold `perAddress` connections from each address, each sending `PARTIAL_HELLO` and then waiting;
 * a connection the responder drops is replaced `reconnectMs` later, from the same address, or with
 * `fresh` from one never used before.
 */
export function holdPartialHellos(port: number, addresses: string[], perAddress: number, reconnectMs = 5, fresh = false): Flood {
  const next = freshAddresses();
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let opened = 0;
  let dropped = 0;
  const open = (localAddress: string): void => {
    if (stopped) return;
    opened++;
    const s = net.connect({ host: '127.0.0.1', port, localAddress, allowHalfOpen: true });
    sockets.add(s);
    s.on('error', () => undefined);
    s.resume(); // read what it is sent, so its end is seen
    s.once('connect', () => s.write(PARTIAL_HELLO));
    // The responder's FIN or reset is the drop: let go of this one and come back.
    let gone = false;
    const onDropped = (): void => {
      if (gone) return;
      gone = true;
      s.destroy();
      sockets.delete(s);
      if (stopped) return;
      dropped++;
      const timer = setTimeout(() => {
        timers.delete(timer);
        open(fresh ? next() : localAddress);
      }, reconnectMs);
      timers.add(timer);
    };
    s.once('end', onDropped);
    s.once('close', onDropped);
  };
  for (const a of addresses) for (let i = 0; i < perAddress; i++) open(a);
  return {
    dropped: () => dropped,
    opened: () => opened,
    stop: () => {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
    },
  };
}

/**
 * Every `everyMs`, open `burst` connections from `localAddress` that each send `payload` and keep
 * their end open, also after the responder ends its own (half-open, as an attacker would): only the
 * responder closing its descriptor ends them.
 */
export function junkBursts(port: number, localAddress: string, burst: number, everyMs: number, payload: Buffer): Flood {
  const sockets = new Set<net.Socket>();
  let opened = 0;
  let dropped = 0;
  const fire = (): void => {
    for (let i = 0; i < burst; i++) {
      opened++;
      const s = net.connect({ host: '127.0.0.1', port, localAddress, allowHalfOpen: true });
      sockets.add(s);
      s.on('error', () => undefined);
      s.resume(); // read what it is sent, so its end is seen
      s.once('connect', () => s.write(payload));
      // Counted once the responder ends its side; the socket stays open until stop().
      s.once('end', () => dropped++);
    }
  };
  fire();
  const timer = setInterval(fire, everyMs);
  return {
    dropped: () => dropped,
    opened: () => opened,
    stop: () => {
      clearInterval(timer);
      for (const s of sockets) s.destroy();
    },
  };
}
