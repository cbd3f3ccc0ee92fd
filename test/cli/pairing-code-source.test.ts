/**
 * The pairing code need not be on the command line (where `ps` shows it to
 * every user of the PC): from a file or from $LONGHAUL_PAIRING_CODE it opens
 * pairing the same way, and `longhaul pair` with that code succeeds.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { startCli, waitFor } from '../helpers/cli-process.js';
import { tmpDir } from '../helpers/tmp.js';

async function pairWithCodeFrom(t: TestContext, source: 'file' | 'env'): Promise<void> {
  const dir = tmpDir(t);
  const code = 'K7QM-2XRD-9PQT';
  const codeFile = path.join(dir, 'code.txt');
  writeFileSync(codeFile, `${code}\n`, { mode: 0o600 });
  const listen = startCli(t, ['listen', '--port', '0', '--bind', '127.0.0.1', ...(source === 'file' ? ['--pairing-code-file', codeFile] : [])], dir, {
    LONGHAUL_TRUST_DIR: path.join(dir, 'responder'),
    ...(source === 'env' ? { LONGHAUL_PAIRING_CODE: code } : {}),
  });
  const port = await waitFor('the listening line', 15_000, () => /listening on [^\s]+:(\d+)/.exec(listen.stdout())?.[1]);
  // The code is its own line, written after the listening line: wait for it too
  // (a pipe may deliver the two in separate reads).
  await waitFor('the pairing code line', 5000, () => listen.stdout().includes(`Pairing code: ${code}`));
  const pair = startCli(t, ['pair', `127.0.0.1:${port}`, '--code', code], dir, { LONGHAUL_TRUST_DIR: path.join(dir, 'controller') });
  assert.equal(await pair.exited(20_000), 0, pair.stdout() + pair.stderr());
  assert.match(pair.stdout(), /[Pp]aired with/);
  listen.killGroup();
}

describe('pairing code sources', { timeout: 60_000 }, () => {
  it("--pairing-code-file opens pairing with the file's code", async (t) => pairWithCodeFrom(t, 'file'));
  it('$LONGHAUL_PAIRING_CODE opens pairing with its code', async (t) => pairWithCodeFrom(t, 'env'));
  it('--help says why to prefer them', async (t) => {
    const help = startCli(t, ['listen', '--help'], tmpDir(t));
    assert.equal(await help.exited(15_000), 0);
    assert.match(help.stdout().replace(/\s+/g, ' '), /read it in `ps`: prefer \$LONGHAUL_PAIRING_CODE or --pairing-code-file/);
  });
});
