/**
 * The CLI end to end, two installations (two trust folders) on 127.0.0.1:
 * `listen --pairing-code`, `pair`, both restarted, `run` needs no code;
 * `peers` lists and forgets; a forgotten responder is refused again.
 */
import assert from 'node:assert/strict';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { startCli, waitFor } from '../helpers/cli-process.js';
import { tmpDir } from '../helpers/tmp.js';

/** The CLI as the installation whose trust folder is `dir`. */
function withTrust(t: TestContext, dir: string, args: string[]) {
  mkdirSync(dir, { recursive: true });
  return startCli(t, args, dir, { LONGHAUL_TRUST_DIR: dir });
}

async function listen(t: TestContext, dir: string, extra: string[]): Promise<{ port: string; stop: () => void; stdout: () => string }> {
  const p = withTrust(t, dir, ['listen', '--port', '0', '--bind', '127.0.0.1', ...extra]);
  const port = await waitFor('the responder to listen', 15_000, () => /listening on 127\.0\.0\.1:(\d+)/.exec(p.stdout())?.[1]);
  return { port, stop: () => p.killGroup(), stdout: p.stdout };
}

describe('pairing from the CLI', { timeout: 120_000 }, () => {
  it('pair once; after restarting both ends a run needs no code; peers lists and forgets', async (t) => {
    const rDir = path.join(tmpDir(t), 'responder');
    const cDir = path.join(tmpDir(t), 'controller');
    const code = '7K3M-Q9TX-2HRB';
    const first = await listen(t, rDir, ['--pairing-code', code]);
    // The code is printed after the "listening on" line, in a write of its own: wait for it, do not race it.
    await waitFor('the responder to print its pairing code', 5000, () => /Pairing code: 7K3M-Q9TX-2HRB/.test(first.stdout()));
    // Not paired yet: refused with the advice.
    const refused = withTrust(t, cDir, ['run', `127.0.0.1:${first.port}`, '--bytes', '1M']);
    assert.equal(await refused.exited(30_000), 1);
    assert.match(refused.stderr(), /LH_ERR_NOT_PAIRED: the responder at 127\.0\.0\.1:\d+ .* is not paired with this PC.*longhaul pair/);
    const pair = withTrust(t, cDir, ['pair', `127.0.0.1:${first.port}`, '--code', code.toLowerCase()]);
    assert.equal(await pair.exited(30_000), 0, pair.stderr());
    assert.match(pair.stdout(), /Paired with \S+ \(127\.0\.0\.1:\d+\), fingerprint [0-9A-F]{4} /);
    await waitFor('the responder to report the pairing', 5000, () => /paired with /.test(first.stdout()));
    first.stop();
    // Owner-only files.
    for (const f of ['identity-key.pem', 'identity-cert.pem', 'peers.json']) {
      assert.equal(statSync(path.join(rDir, f)).mode & 0o777, 0o600, `${f} is 0600`);
      assert.equal(statSync(path.join(cDir, f)).mode & 0o777, 0o600, `${f} is 0600`);
    }
    assert.equal(statSync(rDir).mode & 0o777, 0o700);
    // Restart the responder with pairing closed: the run goes through on the stored trust alone.
    const second = await listen(t, rDir, ['--no-pairing', '--once']);
    assert.doesNotMatch(second.stdout(), /Pairing code/);
    const run = withTrust(t, cDir, ['run', `127.0.0.1:${second.port}`, '--bytes', '2M']);
    assert.equal(await run.exited(30_000), 0, `stderr: ${run.stderr()}\nstdout: ${run.stdout()}`);
    const peers = withTrust(t, cDir, ['peers', '--json']);
    assert.equal(await peers.exited(15_000), 0);
    const list = JSON.parse(peers.stdout()) as { peers: { name: string; lastSeen: string; pairedAt: string }[] };
    assert.equal(list.peers.length, 1);
    assert.ok(list.peers[0]!.lastSeen > list.peers[0]!.pairedAt, 'last seen moved on with the run');
    const forget = withTrust(t, cDir, ['peers', '--forget', list.peers[0]!.name]);
    assert.equal(await forget.exited(15_000), 0);
    const third = await listen(t, rDir, ['--no-pairing', '--once']);
    const again = withTrust(t, cDir, ['run', `127.0.0.1:${third.port}`, '--bytes', '1M']);
    assert.equal(await again.exited(30_000), 1);
    assert.match(again.stderr(), /LH_ERR_NOT_PAIRED/);
    third.stop();
  });
});
