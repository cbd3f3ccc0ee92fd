/**
 * A stream's bytes sent as the reports show them. A sender that vanished sent no end report, so its count is
 * the one in its last sample (engine/session/run-recorder.ts: that view has no times and LH_ERR_PEER_GONE).
 * That sample is older than what its receiver counted, so the count is shown as a lower bound, and never as
 * less than what arrived (received ≤ sent): `≥ 1,576,137,514`, not a smaller number than the receiver's.
 */
import type { StreamResult } from './result.js';

/** The bytes sent a report shows; `atLeast`: a lower bound (the sender's last sample, or what arrived). */
export interface ShownSent {
  bytes: number;
  atLeast: boolean;
}

/** The sender's end as run-recorder builds it from a last sample: no end report, so no times, and the peer gone. */
function fromLastSample(send: NonNullable<StreamResult['send']>): boolean {
  return send.error?.code === 'LH_ERR_PEER_GONE' && send.seconds === null && send.lastT === null;
}

/** Null when the sender's count is unknown. */
export function shownSent(s: Pick<StreamResult, 'bytes' | 'send'>): ShownSent | null {
  if (!s.send) return null;
  if (!fromLastSample(s.send)) return { bytes: s.send.bytes, atLeast: false };
  return { bytes: Math.max(s.send.bytes, s.bytes), atLeast: true };
}

/** Several streams' sent bytes added: a lower bound if any is; null if any is unknown. */
export function sumShownSent(parts: (ShownSent | null)[]): ShownSent | null {
  if (parts.some((p) => p === null)) return null;
  const known = parts as ShownSent[];
  return { bytes: known.reduce((a, p) => a + p.bytes, 0), atLeast: known.some((p) => p.atLeast) };
}

/** `≥ 1,576,137,514` or `1,171,190,517` in the caller's number format; `unknown` when the count is. */
export function sentText(x: ShownSent | null, format: (n: number) => string): string {
  return x === null ? 'unknown' : `${x.atLeast ? '≥ ' : ''}${format(x.bytes)}`;
}
