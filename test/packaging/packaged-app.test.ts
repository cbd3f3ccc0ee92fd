/**
 * The real package: electron-builder builds the unpacked app ("dir" target) with
 * a stand-in Electron zip served from 127.0.0.1 (a shell script where the
 * runtime would be; checksum from a SHASUMS256.txt beside it), then app.asar is
 * read back. Every file the app loads is in it, the native prebuild sits in
 * app.asar.unpacked, the production dependencies are there, and Electron,
 * tests, sources, source maps and the npm ci build of the addon are not.
 * Linux only: the stand-in has the layout of Linux's Electron zip.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadBuilderConfig } from '../../scripts/packaging/builder-api.js';
import { electronVersionFor } from '../../scripts/packaging/dist.js';
import { checkPackageContents } from '../../scripts/packaging/package-contents.js';
import { prebuildPath } from '../../scripts/packaging/prebuild-native.js';
import { skipWithoutNative } from '../helpers/native.js';
import { REPO } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';
import { zipStored } from '../helpers/zip.js';
import { childEnded } from '../helpers/child-exit.js';

const require = createRequire(import.meta.url);
const asar = createRequire(require.resolve('app-builder-lib'))('@electron/asar') as { listPackage(file: string, o?: object): string[] };

/** Serves a stand-in Electron release (zip + SHASUMS256.txt) for `version`; returns its base URL and the paths asked for. */
async function fakeElectronMirror(version: string, t: { after(fn: () => unknown): void }): Promise<{ url: string; requests: string[] }> {
  const zipName = `electron-v${version}-linux-x64.zip`;
  const zip = zipStored([
    { name: 'electron', data: Buffer.from('#!/bin/sh\necho "stand-in for Electron"\n'), mode: 0o100755 },
    { name: 'LICENSE', data: Buffer.from('stand-in\n') },
    { name: 'version', data: Buffer.from(version) },
    { name: 'resources/default_app.asar', data: Buffer.from('{}') },
  ]);
  const sums = `${createHash('sha256').update(zip).digest('hex')} *${zipName}\n`;
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === `/v${version}/${zipName}`) res.end(zip);
    else if (req.url === `/v${version}/SHASUMS256.txt`) res.end(sums);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests };
}

const skip = process.platform !== 'linux' || process.arch !== 'x64' ? 'the stand-in Electron has the Linux x64 layout' : skipWithoutNative;

describe('the packaged app (electron-builder, unpacked)', { timeout: 180_000, skip }, () => {
  it('holds everything the app loads, and nothing it must not', async (t) => {
    const { version } = electronVersionFor(REPO);
    const mirror = await fakeElectronMirror(version, t);
    const dir = tmpDir(t);
    // The prebuild `npm run dist` would compile: the addon npm ci built, under its prebuild name.
    const prebuild = path.join(REPO, prebuildPath('linux', 'x64'));
    if (!existsSync(prebuild)) {
      mkdirSync(path.dirname(prebuild), { recursive: true });
      copyFileSync(path.join(REPO, 'native/build/Release/longhaul_native.node'), prebuild);
      t.after(() => rmSync(prebuild, { force: true }));
    }
    const env = {
      ...process.env,
      ELECTRON_MIRROR: mirror.url,
      ELECTRON_BUILDER_BINARIES_MIRROR: mirror.url,
      ELECTRON_BUILDER_BINARIES_ALLOW_HTTP: 'true',
      ELECTRON_CACHE: path.join(dir, 'electron-cache'),
      ELECTRON_BUILDER_CACHE: path.join(dir, 'builder-cache'),
    };
    const out = path.join(dir, 'out');
    const child = spawn(process.execPath, [path.join(REPO, 'dist/scripts/packaging/dist.js'), '--linux', '--dir', '--skip-prebuild', '--out', out], {
      cwd: REPO,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (c: Buffer) => (log += c.toString()));
    child.stderr.on('data', (c: Buffer) => (log += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 170_000);
    t.after(() => {
      clearTimeout(timer);
      child.kill('SIGKILL');
    });
    const { code } = await childEnded(child);
    assert.equal(code, 0, log);
    assert.ok(
      mirror.requests.some((u) => u.endsWith(`electron-v${version}-linux-x64.zip`)),
      mirror.requests.join(', '),
    );

    const resources = path.join(out, 'linux-unpacked', 'resources');
    assert.ok(existsSync(path.join(out, 'linux-unpacked', 'longhaul')), 'the executable, renamed after the app');
    const inAsar = new Set(asar.listPackage(path.join(resources, 'app.asar'), { isPack: false }).map((p) => p.split(path.sep).join('/').replace(/^\//, '')));

    const graph = checkPackageContents(REPO, await loadBuilderConfig(REPO)).graph;
    const missing = graph.files.filter((f) => !inAsar.has(f));
    assert.deepEqual(missing, [], 'every file the app loads is in app.asar');
    for (const f of ['dist/electron/main.js', 'dist/preload/preload.cjs', 'dist/ui/index.html', 'dist/electron/engine/data-plane/data-worker/index.js'])
      assert.ok(inAsar.has(f), f);
    for (const dep of ['commander', 'node-gyp-build', 'ws', 'zod', 'open']) assert.ok(inAsar.has(`node_modules/${dep}/package.json`), `dependency ${dep}`);

    assert.ok(existsSync(path.join(resources, 'app.asar.unpacked', prebuildPath('linux', 'x64'))), 'the addon is unpacked beside app.asar');
    const forbidden = [...inAsar].filter((f) =>
      /^node_modules\/electron\/|^dist\/test\/|^electron\/|^native\/build\/|^native\/src\/|\.map$|^build\/|^scripts\//.test(f),
    );
    assert.deepEqual(forbidden, []);
  });
});
