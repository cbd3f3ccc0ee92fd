/**
 * A stranger cannot crash `longhaul listen`: with the peers file unreadable
 * (damaged here; EMFILE under a flood does the same), every stranger's first
 * message used to throw out of the trust check as an unhandled rejection and
 * end the process. Now the check says "not trusted", the operator is told
 * once, the stranger is refused and let go of at once, and the responder
 * keeps serving.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startRun } from '../../electron/engine/session/controller.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';
import { loadOrCreateIdentity } from '../../electron/security/identity.js';
import { within } from '../helpers/net.js';
import { forkLonghaul, stopChild } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';
import { strangerTrust } from '../helpers/trust.js';

describe('a stranger against a responder whose peers file cannot be read', { timeout: 60_000 }, () => {
  it('is refused with LH_ERR_NOT_PAIRED, three times in a row, and the listen process lives on and says why', async (t) => {
    const dir = tmpDir(t);
    const { child, msg } = await forkLonghaul<{ type: 'listening'; port: number }>(['listen', '--port', '0', '--bind', '127.0.0.1'], 'listening', {
      LONGHAUL_TRUST_DIR: dir,
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      writeFileSync(path.join(dir, 'peers.json'), '{ this is not json');
      // A stranger that pinned this responder (its certificate is public; the attacker need not check it):
      // the responder's own trust check is what its first message reaches.
      const stranger = await strangerTrust();
      stranger.peers.add('the responder', (await loadOrCreateIdentity(dir)).fingerprint, '127.0.0.1');
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const run = startRun({ host: '127.0.0.1', port: msg.port, security: stranger, params: { ...DEFAULT_PARAMS, seconds: 1 } });
        const r = await within(run.result, 15_000, `stranger ${i + 1}`);
        assert.equal(r.errors[0]?.code, 'LH_ERR_NOT_PAIRED', JSON.stringify(r.errors));
        assert.ok(Date.now() - started < 5000, 'refused promptly');
        assert.equal(child.exitCode, null, `the responder exited after stranger ${i + 1}; stderr: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(child.exitCode, null, `the responder is still running; stderr: ${stderr}`);
      assert.equal(child.signalCode, null);
      const said = stderr.match(/peers file .* (damaged|cannot be read)/g) ?? [];
      assert.equal(said.length, 1, `the operator is told once, not once per stranger: ${stderr}`);
    } finally {
      await stopChild(child);
    }
  });
});
