/**
 * The partner as errors and report lines name it, the way the reports' headers do: its role, host name
 * and address. The caller hands in printable text (peer text is neutralised where it enters, a file's
 * strings when it is read; util/printable.ts otherwise): this only puts the words together, once.
 */
import type { PeerInfo, Side } from './result.js';

/**
 * `the responder lab-7 (192.0.2.7)`; `the responder at 192.0.2.7` while only its address is known (no hello yet:
 * a controller records its responder's host name as `unknown` until then).
 */
export function partnerLabel(side: Side, p: Pick<PeerInfo, 'hostname' | 'address'>): string {
  const known = p.hostname !== p.address && p.hostname !== 'unknown';
  return known ? `the ${side} ${p.hostname} (${p.address})` : `the ${side} at ${p.address}`;
}
