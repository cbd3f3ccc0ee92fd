/**
 * How the trust folder is protected: POSIX modes; on Windows an icacls ACL,
 * asked of a fake runner (the steps, their order, a failure that must not
 * lock anyone out) and of a real bounded child process (a hang is cut off).
 * Wine's icacls is a stub that changes nothing, so the ACL itself is checked
 * only on real Windows (docs/security.md).
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadTrust } from '../../electron/security/load-trust.js';
import { writePrivate } from '../../electron/security/private-files.js';
import { ACL_MARKER, protectTrustDir } from '../../electron/security/trust-dir.js';
import { icaclsSteps, restrictToUser, runBounded, type CommandOutcome, type CommandRunner } from '../../electron/security/windows-acl.js';
import type { HostPaths } from '../../electron/util/app-paths.js';
import { tmpDir } from '../helpers/tmp.js';

const WINDOWS: HostPaths = {
  platform: 'win32',
  env: { USERNAME: 'Test User', USERDOMAIN: 'LAPTOP-7', SystemRoot: 'C:\\WINDOWS', LOCALAPPDATA: 'C:\\Users\\Test User\\AppData\\Local' },
  homedir: 'C:\\Users\\Test User',
  cwd: 'C:\\Users\\Test User',
};
const OK: CommandOutcome = { code: 0, timedOut: false, text: 'processed file: …\r\nSuccessfully processed 1 files; Failed processing 0 files' };

/** A runner that records its calls and answers from a list (then OK). */
function fakeRunner(answers: CommandOutcome[] = []): CommandRunner & { calls: { file: string; args: readonly string[]; timeoutMs: number }[] } {
  const calls: { file: string; args: readonly string[]; timeoutMs: number }[] = [];
  const run = (async (file: string, args: readonly string[], timeoutMs: number) => {
    calls.push({ file, args, timeoutMs });
    return answers.shift() ?? OK;
  }) as CommandRunner & { calls: typeof calls };
  run.calls = calls;
  return run;
}

describe('trust folder protection', { timeout: 30_000 }, () => {
  it('Windows: grants first (user, SYSTEM and Administrators by SID, inherited by files and folders), then drops inheritance', async () => {
    const dir = 'C:\\Users\\Test User\\AppData\\Local\\Longhaul\\trust';
    const run = fakeRunner();
    assert.equal(await restrictToUser(dir, WINDOWS, run, 5000), null);
    assert.deepEqual(
      run.calls.map((c) => c.file),
      ['C:\\WINDOWS\\System32\\icacls.exe', 'C:\\WINDOWS\\System32\\icacls.exe'],
      'by full path',
    );
    assert.deepEqual(
      run.calls.map((c) => c.args),
      icaclsSteps(dir, 'LAPTOP-7\\Test User'),
    );
    assert.deepEqual(run.calls[0]!.args, [dir, '/grant:r', 'LAPTOP-7\\Test User:(OI)(CI)F', '*S-1-5-18:(OI)(CI)F', '*S-1-5-32-544:(OI)(CI)F']);
    assert.deepEqual(run.calls[1]!.args, [dir, '/inheritance:r']);
    assert.ok(run.calls.every((c) => c.timeoutMs === 5000));
  });

  it('Windows: a failed grant stops there (inheritance stays, nobody is locked out) and comes back as a reason', async () => {
    const run = fakeRunner([{ code: 1332, timedOut: false, text: 'LAPTOP-7\\Test User: No mapping between account names and security IDs was done.\r\n' }]);
    const why = await restrictToUser('C:\\t', WINDOWS, run);
    assert.equal(run.calls.length, 1, '/inheritance:r never runs after a failed grant');
    assert.match(why ?? '', /icacls \/grant:r failed \(exit code 1332: .*No mapping between account names/);
    assert.match(
      (await restrictToUser('C:\\t', WINDOWS, fakeRunner([OK, { code: null, timedOut: true, text: '' }]), 250)) ?? '',
      /\/inheritance:r did not finish within 0\.25 s/,
    );
    assert.match((await restrictToUser('C:\\t', { ...WINDOWS, env: { SystemRoot: 'C:\\WINDOWS' } }, fakeRunner())) ?? '', /USERNAME is not set/);
  });

  it('Windows: done once (a marker records it); a failure is a warning, and the next start tries again', async (t) => {
    const dir = path.join(tmpDir(t), 'trust');
    const failing = fakeRunner([{ code: 5, timedOut: false, text: 'Access is denied.' }]);
    const first = await protectTrustDir(dir, WINDOWS, failing);
    assert.equal(first.how, 'windows-inherited');
    assert.match(
      first.warning ?? '',
      /could not restrict the trust folder .* \(icacls \/grant:r failed \(exit code 5: Access is denied\.\)\); it keeps the permissions of its parent folder/,
    );
    assert.ok(existsSync(dir), 'the folder is there all the same');
    assert.ok(!existsSync(path.join(dir, ACL_MARKER)));
    const working = fakeRunner();
    assert.deepEqual(await protectTrustDir(dir, WINDOWS, working), { how: 'windows-acl', warning: null });
    assert.equal(working.calls.length, 2);
    assert.match(readFileSync(path.join(dir, ACL_MARKER), 'utf8'), /this user, SYSTEM and Administrators/);
    const again = fakeRunner();
    assert.deepEqual(await protectTrustDir(dir, WINDOWS, again), { how: 'windows-acl', warning: null });
    assert.equal(again.calls.length, 0, 'not run again once done');
  });

  it('Windows without a working icacls: the identity is still made, the warning says so (never a crash)', async (t) => {
    // On Linux C:\WINDOWS\System32\icacls.exe does not exist: the real runner reports it like any failure.
    const dir = path.join(tmpDir(t), 'Test User trust');
    const trust = await loadTrust(dir, WINDOWS);
    assert.equal(trust.protection?.how, 'windows-inherited');
    assert.match(trust.protection?.warning ?? '', /cannot run C:\\WINDOWS\\System32\\icacls\.exe/);
    assert.match(trust.identity.fingerprint, /^[0-9a-f]{64}$/);
    assert.ok(existsSync(path.join(dir, 'identity-key.pem')));
  });

  it('POSIX: 0700 folder (an existing looser one tightened), 0600 files, no child process', async (t) => {
    const dir = path.join(tmpDir(t), 'trust');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const run = fakeRunner();
    assert.deepEqual(await protectTrustDir(dir, { ...WINDOWS, platform: 'linux' }, run), { how: 'posix-modes', warning: null });
    assert.equal(run.calls.length, 0);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    writePrivate(path.join(dir, 'peers.json'), '{}');
    assert.equal(statSync(path.join(dir, 'peers.json')).mode & 0o777, 0o600);
  });

  it('the real runner is bounded: a hung program is killed at the timeout; exit codes and missing programs are reported', async () => {
    const started = Date.now();
    const hung = await runBounded(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], 300);
    assert.deepEqual({ code: hung.code, timedOut: hung.timedOut }, { code: null, timedOut: true });
    assert.ok(Date.now() - started < 5000, `returned after ${Date.now() - started} ms`);
    const failed = await runBounded(process.execPath, ['-e', 'console.log("Failed processing 1 files"); process.exit(3)'], 5000);
    assert.deepEqual(failed, { code: 3, timedOut: false, text: 'Failed processing 1 files' });
    const missing = await runBounded('/nonexistent/icacls.exe', ['x'], 5000);
    assert.equal(missing.code, null);
    assert.match(missing.text, /ENOENT/);
  });

  it('writePrivate on Windows retries a rename that a scanner holds up, and gives up after about a second', (t) => {
    const dir = tmpDir(t);
    const file = path.join(dir, 'peers.json');
    writeFileSync(file, 'old');
    let failures = 2;
    const flaky = (from: string, to: string): void => {
      if (failures-- > 0) throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
      writeFileSync(to, readFileSync(from)); // a rename: the content moves, the temporary name goes
      rmSync(from);
    };
    writePrivate(file, 'new', { platform: 'win32', rename: flaky });
    assert.equal(readFileSync(file, 'utf8'), 'new');
    const busy = (): void => {
      throw Object.assign(new Error('resource busy'), { code: 'EBUSY' });
    };
    const started = Date.now();
    assert.throws(() => writePrivate(file, 'newer', { platform: 'win32', rename: busy }), { code: 'EBUSY' });
    const waited = Date.now() - started;
    assert.ok(waited >= 1000 && waited < 4000, `gave up after ${waited} ms`);
    assert.throws(() => writePrivate(file, 'newer', { platform: 'linux', rename: busy }), { code: 'EBUSY' }, 'POSIX renames do not fail that way: no retry');
    assert.deepEqual(readdirSync(dir), ['peers.json'], 'no temporary file left behind');
    assert.equal(readFileSync(file, 'utf8'), 'new');
  });
});
