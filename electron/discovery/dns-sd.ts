/**
 * DNS-SD over mDNS (bonjour-service): a responder advertises, a controller
 * browses for a bounded time. Multicast is often blocked: manual address entry
 * always works, and an empty list is a normal answer.
 */
import { Bonjour } from 'bonjour-service';
import { advertisementFor, parseService, SERVICE_TYPE, type DiscoveredResponder } from './records.js';

interface MdnsOptions {
  /** The interface address to send and receive multicast on (tests: 127.0.0.1 inside a namespace). */
  interface?: string;
}

/** multicast-dns options: a socket bound to the interface address would not receive multicast, so bind the wildcard. */
function mdnsOptions(opts: MdnsOptions): never {
  return (opts.interface ? { interface: opts.interface, bind: '0.0.0.0' } : undefined) as never;
}

/** Advertise a responder until the returned stop() is called (idempotent). */
export function advertise(name: string, port: number, fingerprint: string, opts: MdnsOptions = {}): { stop: () => Promise<void> } {
  const bonjour = new Bonjour(mdnsOptions(opts), () => undefined);
  bonjour.publish({ ...advertisementFor(name, port, fingerprint), probe: false });
  let stopped: Promise<void> | null = null;
  return {
    stop: () => (stopped ??= new Promise((resolve) => bonjour.unpublishAll(() => bonjour.destroy(() => resolve())))),
  };
}

/** Browse for `ms` and return every Longhaul responder seen (deduplicated by name and port). */
export function browse(ms: number, isPaired: (fingerprint: string) => boolean, opts: MdnsOptions = {}): Promise<DiscoveredResponder[]> {
  return new Promise((resolve) => {
    const bonjour = new Bonjour(mdnsOptions(opts), () => undefined);
    const found = new Map<string, DiscoveredResponder>();
    const browser = bonjour.find({ type: SERVICE_TYPE, protocol: 'tcp' }, (s) => {
      const r = parseService(s as never, isPaired);
      if (r) found.set(`${r.name}:${r.port}`, r);
    });
    setTimeout(
      () => {
        browser.stop();
        bonjour.destroy(() => resolve([...found.values()]));
      },
      Math.max(100, Math.min(ms, 10_000)),
    );
  });
}
