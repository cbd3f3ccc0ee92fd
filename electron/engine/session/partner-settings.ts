/**
 * Each end reads its own TCP settings (advice/local-settings.ts: the same
 * reader the advice uses for this PC) and sends them with its end-of-run
 * `results`, so the advice can show the partner's current values instead of
 * "unknown". Sent only to a peer that announced it takes them in its hello;
 * what arrives is checked by the results schema (protocol/messages.ts: known
 * key shape, values through peerText).
 */
import type { LocalSettings } from './local-settings.js';

/** The capability a peer announces when it takes `settings` in `results`. */
export const SETTINGS_IN_RESULTS = 'settings:in-results';

/** The `settings` field of this end's `results` message: present when the partner announced it takes them and they were read (null: not yet). */
export function settingsForPartner(partnerCapabilities: readonly string[] | undefined, settings: LocalSettings | null): { settings?: LocalSettings } {
  return settings && partnerCapabilities?.includes(SETTINGS_IN_RESULTS) ? { settings } : {};
}
