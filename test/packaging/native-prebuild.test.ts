/**
 * The packaged app finds its addon: node-gyp-build, running as in Electron
 * (ELECTRON_RUN_AS_NODE=1 is how Electron's fork() starts the data workers, and
 * node-gyp-build then looks for an Electron-compatible binary), loads a prebuild
 * named as prebuild-native.ts names it, and refuses prebuildify's default name.
 * Uses the addon `npm ci` built, copied into a prebuilds/ folder.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { prebuildFileName, prebuildPath } from '../../scripts/packaging/prebuild-native.js';
import { skipWithoutNative } from '../helpers/native.js';
import { REPO } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';

const BUILT = path.join(REPO, 'native', 'build', 'Release', 'longhaul_native.node');
const GYP_BUILD = createRequire(import.meta.url).resolve('node-gyp-build');

/** Loads `dir` with node-gyp-build in a child process; returns what it loaded, or its error. */
function loadIn(dir: string, asElectron: boolean): { ok: boolean; text: string } {
  const script = `const b = require(${JSON.stringify(GYP_BUILD)})(${JSON.stringify(dir)});
    console.log(typeof b.tcpInfoInto === 'function' && Array.isArray(b.tcpInfoFields) ? 'loaded ' + b.tcpInfoFields.length + ' fields' : 'wrong binding');`;
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
  if (!asElectron) delete env.ELECTRON_RUN_AS_NODE;
  const r = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8', timeout: 20_000 });
  return { ok: r.status === 0, text: `${r.stdout}${r.stderr}` };
}

function prebuildsWith(dir: string, name: string): string {
  const folder = path.join(dir, 'prebuilds', `${process.platform}-${process.arch}`);
  mkdirSync(folder, { recursive: true });
  copyFileSync(BUILT, path.join(folder, name));
  return dir;
}

describe('native prebuilds in the packaged app', { timeout: 60_000, skip: skipWithoutNative }, () => {
  it('names the prebuild where electron/native/load-native.ts looks', () => {
    assert.equal(prebuildPath('win32', 'arm64'), 'native/prebuilds/win32-arm64/node.napi.node');
    assert.equal(prebuildPath('linux', 'x64'), 'native/prebuilds/linux-x64/node.napi.glibc.node');
  });

  it("loads our prebuild name under Electron, and prebuildify's default only under Node", (t) => {
    assert.ok(existsSync(BUILT), `the addon is built by npm ci (${BUILT})`);
    const ours = prebuildsWith(tmpDir(t), prebuildFileName(process.platform));
    const asElectron = loadIn(ours, true);
    assert.ok(asElectron.ok, asElectron.text);
    assert.match(asElectron.text, /^loaded \d+ fields/);

    const defaultName = prebuildsWith(tmpDir(t), process.platform === 'linux' ? 'node.glibc.node' : 'node.node');
    assert.ok(loadIn(defaultName, false).ok, 'plain Node accepts the default name');
    const refused = loadIn(defaultName, true);
    assert.equal(refused.ok, false);
    assert.match(refused.text, /No native build was found for .*runtime=electron/);
  });
});
