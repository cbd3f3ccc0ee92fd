/**
 * What a responder says about itself on the LAN (DNS-SD `_longhaul._tcp`):
 * its name, port and certificate fingerprint in the TXT record, so a
 * controller can show paired/unpaired before connecting. The fingerprint is
 * a hint only: the TLS pin decides (docs/security.md).
 */
import type { DiscoveredResponder } from '../contract/api.js';
import { printable } from '../util/printable.js';

export type { DiscoveredResponder };
export const SERVICE_TYPE = 'longhaul';
const TXT_VERSION = '1';

interface Advertisement {
  name: string;
  type: typeof SERVICE_TYPE;
  protocol: 'tcp';
  port: number;
  txt: { v: string; fp: string };
}

/** The service a responder publishes. */
export function advertisementFor(name: string, port: number, fingerprint: string): Advertisement {
  return { name: name.slice(0, 63) || 'longhaul', type: SERVICE_TYPE, protocol: 'tcp', port, txt: { v: TXT_VERSION, fp: fingerprint } };
}

/** Turn a browsed service into a list entry; null for one that is not a Longhaul responder of our version. */
export function parseService(
  s: { name?: string; port?: number; addresses?: string[]; txt?: Record<string, unknown> },
  isPaired: (fingerprint: string) => boolean,
): DiscoveredResponder | null {
  if (!s.name || !s.port || s.port < 1 || s.port > 65535) return null;
  const txt = s.txt ?? {};
  if (String(txt.v ?? '') !== TXT_VERSION) return null;
  const fp = typeof txt.fp === 'string' && /^[0-9a-f]{64}$/.test(txt.fp) ? txt.fp : null;
  const addresses = [...(s.addresses ?? [])].sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
  return { name: printable(s.name, 63), addresses, port: s.port, fingerprint: fp, paired: fp !== null && isPaired(fp) };
}
