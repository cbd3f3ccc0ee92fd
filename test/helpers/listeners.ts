/**
 * Several `longhaul listen` processes on 127.0.0.1, port 0, each a separate
 * installation (its own identity folder), paired with one controller over the
 * real pairing exchange; stopped when the test ends, also when it fails.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { spawnLoopbackResponder, stopLocalResponder } from '../../electron/engine/session/local-responder.js';
import type { ControllerSecurity } from '../../electron/security/controller-security.js';
import type { LoadedTrust } from '../../electron/security/load-trust.js';
import { pairWith } from '../../electron/security/pair-client.js';
import { newPairingCode } from '../../electron/security/pairing-code.js';

interface PairedListener {
  child: ChildProcess;
  port: number;
}

/**
 * One listener per name, identities in `<mine.dir>/<name>`. `security` is the controller side that
 * learns the pairings: pass `mine` itself to have them saved (for a CLI run on the same trust folder).
 * `once`: each serves one run and exits (`listen --once`); false: runs until the test ends.
 */
export async function pairedListeners(
  t: TestContext,
  mine: LoadedTrust,
  names: string[],
  security: ControllerSecurity = mine,
  once = true,
): Promise<PairedListener[]> {
  const out: PairedListener[] = [];
  for (const name of names) {
    const code = newPairingCode();
    const env = { ...process.env, LONGHAUL_TRUST_DIR: path.join(mine.dir, name), LONGHAUL_PAIRING_CODE: code };
    const { child, port } = await spawnLoopbackResponder([], env, once);
    t.after(() => stopLocalResponder(child));
    await pairWith({ host: '127.0.0.1', port, code, security });
    out.push({ child, port });
  }
  return out;
}
