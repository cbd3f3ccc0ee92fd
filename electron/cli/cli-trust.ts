/** This installation's trust for a CLI command: `loadTrust`, with a protection problem told on stderr. */
import { loadTrust, type LoadedTrust } from '../security/load-trust.js';

/** Load (or create) the identity and peers; a trust folder that could not be protected is a warning, not a failure. */
export async function loadCliTrust(): Promise<LoadedTrust> {
  const trust = await loadTrust();
  if (trust.protection?.warning) process.stderr.write(`longhaul: warning: ${trust.protection.warning}\n`);
  return trust;
}
