/**
 * What the link emulator accepts, one copy for every door: its stages'
 * schemas (proxy/stages/*), the link settings (proxy/link-settings.ts), the
 * CLI's link flags (cli/link-options.ts) and the Link screen's form
 * (renderer/src/lib/link-form.ts) all read these, so a value one accepts the
 * others accept too. Pure, no Node imports: the renderer shares it.
 */
import type { Parsed } from './units.js';

/**
 * The emulator's segment size range, bytes: below 500 its per-segment models
 * (loss, slow start, the rate's header overhead) stop resembling any real
 * path; 65,535 is the largest MSS TCP's option can carry.
 */
export const LINK_MIN_MSS_BYTES = 500;
export const LINK_MAX_MSS_BYTES = 65_535;
/** One-way delay, ms: 60 s each way (a 120 s RTT) is past any real path, geostationary included. */
export const LINK_MAX_DELAY_MS = 60_000;
/** Delay jitter, ms. */
export const LINK_MAX_JITTER_MS = 60_000;
/** Link rate each way, bit/s: above 0, at most 1 Tbit/s (larger is a typo). */
export const LINK_MAX_RATE_BITS_PER_SEC = 1e12;
/** Modelled loss per segment: above 50 % a link is not carrying TCP at all. */
export const LINK_MAX_LOSS_RATIO = 0.5;

/**
 * A loss ratio as typed: `0.1%` → 0.001, `0.001` → 0.001, from 0 to 50 %.
 * The error is a phrase for after the field's name (`--loss: …`, or under the Link screen's field).
 */
export function parseLossRatio(text: string): Parsed {
  const m = /^\s*(-?[0-9]+(?:\.[0-9]+)?)\s*(%?)\s*$/.exec(text);
  if (!m) return { ok: false, error: /^\s*-/.test(text) ? 'cannot be negative' : 'a ratio, e.g. 0.1% or 0.001' };
  const v = Number(m[1]) / (m[2] ? 100 : 1);
  if (v < 0) return { ok: false, error: 'cannot be negative' };
  return v > LINK_MAX_LOSS_RATIO ? { ok: false, error: `at most ${LINK_MAX_LOSS_RATIO * 100} %` } : { ok: true, value: v };
}
