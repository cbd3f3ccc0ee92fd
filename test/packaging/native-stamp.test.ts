/**
 * The install step leaves an up-to-date addon alone: `npx longhaul` right after `npm ci`
 * runs the install script again, and `node-gyp rebuild` deletes native/build first, so a
 * run started meanwhile took the Node path without the addon. The stamp rule on a copy of
 * the sources, then the real script against the build `npm ci` made.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it, type TestContext } from 'node:test';
import { skipWithoutNative } from '../helpers/native.js';
import { REPO } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';

interface StampModule {
  addonPath(dir: string): string;
  sourceDigest(dir: string, napiVersion: string): string;
  staleReason(dir: string, digest: string): string | null;
  writeStamp(dir: string, digest: string): void;
}
const stamp = (await import(pathToFileURL(path.join(REPO, 'scripts', 'native-stamp.js')).href)) as StampModule;

/** native/src and binding.gyp copied, with a stand-in addon file where node-gyp puts one. */
function nativeCopy(t: TestContext): string {
  const dir = path.join(tmpDir(t), 'native');
  cpSync(path.join(REPO, 'native', 'src'), path.join(dir, 'src'), { recursive: true });
  cpSync(path.join(REPO, 'native', 'binding.gyp'), path.join(dir, 'binding.gyp'));
  mkdirSync(path.dirname(stamp.addonPath(dir)), { recursive: true });
  writeFileSync(stamp.addonPath(dir), 'stand-in');
  return dir;
}

describe('native addon build stamp', { timeout: 30_000 }, () => {
  it('calls a build stale until stamped, fresh after, and stale again when a source or the headers change', (t) => {
    const dir = nativeCopy(t);
    const digest = stamp.sourceDigest(dir, '8.0.0');
    assert.equal(stamp.staleReason(dir, digest), 'the build has no stamp');
    stamp.writeStamp(dir, digest);
    assert.equal(stamp.staleReason(dir, digest), null);
    assert.notEqual(stamp.sourceDigest(dir, '8.1.0'), digest, 'another node-addon-api is another build');
    appendFileSync(path.join(dir, 'src', 'addon.cc'), '\n// changed\n');
    const changed = stamp.sourceDigest(dir, '8.0.0');
    assert.notEqual(changed, digest);
    assert.equal(stamp.staleReason(dir, changed), 'the sources changed since the last build');
  });

  it('calls a missing addon file a missing build whatever the stamp says', (t) => {
    const dir = nativeCopy(t);
    const digest = stamp.sourceDigest(dir, '8.0.0');
    stamp.writeStamp(dir, digest);
    rmSync(stamp.addonPath(dir));
    assert.equal(stamp.staleReason(dir, digest), 'no build yet');
  });

  it('the install step keeps the build npm ci made, in place', { skip: skipWithoutNative }, () => {
    const addon = stamp.addonPath(path.join(REPO, 'native'));
    const stampFile = path.join(REPO, 'native', 'build', 'longhaul-build.json');
    if (!existsSync(stampFile)) return void assert.fail('native/build has no stamp: the install step (scripts/build-native.js --optional) did not write one');
    const before = statSync(addon).mtimeMs;
    const r = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'build-native.js'), '--optional'], { cwd: REPO, encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /up to date/);
    assert.equal(statSync(addon).mtimeMs, before, 'the addon file was not rebuilt');
  });
});
