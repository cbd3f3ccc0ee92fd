/**
 * `npm run dist` where Electron cannot be downloaded: every step before the
 * download runs, electron-builder then asks for Electron's zip, and the message
 * says exactly what could not be downloaded. The "internet" here is a local
 * HTTP server (ELECTRON_MIRROR) that logs the request and drops the connection,
 * as a blocking proxy would; no traffic leaves 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { classifyDownloadFailure, downloadFailureMessage } from '../../scripts/packaging/download-failure.js';
import { EXIT_DOWNLOAD, electronVersionFor } from '../../scripts/packaging/dist.js';
import { REPO } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';
import { childEnded } from '../helpers/child-exit.js';

/** An error shaped like got's (what @electron/get throws), with the URL it was fetching. */
function gotError(code: string, message: string, url: string): Error {
  const e = Object.assign(new Error(message), { code, name: 'RequestError' });
  Object.defineProperty(e, 'options', { value: { url: new URL(url) }, enumerable: false });
  return e;
}

describe('download failures', () => {
  it("names Electron's runtime when its zip cannot be fetched", () => {
    const f = classifyDownloadFailure(
      gotError(
        'ENOTFOUND',
        'getaddrinfo ENOTFOUND github.com',
        'https://github.com/electron/electron/releases/download/v45.5.0/electron-v45.5.0-win32-x64.zip',
      ),
    );
    assert.equal(f?.artifact, 'electron');
    assert.match(f!.reason, /ENOTFOUND/);
    const text = downloadFailureMessage(f!, ['schema checked']);
    assert.match(text, /Electron's prebuilt runtime .* cannot be downloaded on this machine/);
    assert.match(text, /✓ schema checked/);
  });

  it('names NSIS, from an HTTP error on its archive', () => {
    const e = new Error(
      'HTTPError: Response code 403 (Forbidden) while downloading https://github.com/electron-userland/electron-builder-binaries/releases/download/nsis-3.0.4.1/nsis-3.0.4.1.7z',
    );
    assert.deepEqual(classifyDownloadFailure(e), {
      artifact: 'nsis',
      url: 'https://github.com/electron-userland/electron-builder-binaries/releases/download/nsis-3.0.4.1/nsis-3.0.4.1.7z',
      reason: 'the server answered HTTP 403',
    });
  });

  it('leaves other errors alone', () => {
    assert.equal(classifyDownloadFailure(new Error('Invalid configuration object. configuration.nsis should be object')), null);
    assert.equal(classifyDownloadFailure(new Error('ENOSPC: no space left on device, write')), null);
  });

  it('knows which Electron to package without node_modules/electron', () => {
    const v = electronVersionFor(REPO);
    assert.match(v.version, /^\d+\.\d+\.\d+$/);
  });
});

describe('npm run dist without access to the downloads', { timeout: 150_000 }, () => {
  it('runs every step before the download, then says what cannot be downloaded', async (t) => {
    const requests: string[] = [];
    const server = http.createServer((req) => {
      requests.push(req.url ?? '');
      req.socket.destroy(); // no answer, like a proxy that refuses the host
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    t.after(() => server.close());
    const mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const dir = tmpDir(t);
    const env = {
      ...process.env,
      ELECTRON_MIRROR: mirror,
      ELECTRON_BUILDER_BINARIES_MIRROR: mirror,
      ELECTRON_BUILDER_BINARIES_ALLOW_HTTP: 'true',
      ELECTRON_CACHE: path.join(dir, 'electron-cache'),
      ELECTRON_BUILDER_CACHE: path.join(dir, 'builder-cache'),
    };
    // --skip-prebuild: the addon compile is covered by npm ci; it would rebuild native/build under other tests.
    const child = spawn(process.execPath, [path.join(REPO, 'dist/scripts/packaging/dist.js'), '--skip-prebuild', '--out', path.join(dir, 'out')], {
      cwd: REPO,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 140_000);
    t.after(() => {
      clearTimeout(timer);
      child.kill('SIGKILL');
    });
    const { code } = await childEnded(child);
    assert.equal(code, EXIT_DOWNLOAD, `stdout:\n${stdout}\nstderr:\n${stderr}`);
    assert.match(stdout, /✓ electron-builder\.yml passes electron-builder [\d.]+'s schema/);
    assert.match(stdout, /✓ main, preload, renderer and data worker are built/);
    assert.match(stdout, /✓ icons generated/);
    const { version } = electronVersionFor(REPO);
    const platform = { win32: 'win32', darwin: 'darwin', linux: 'linux' }[process.platform as string];
    assert.ok(
      requests.some((u) => u.includes(`electron-v${version}-${platform}-`)),
      `Electron's zip was requested: ${requests.join(', ')}`,
    );
    assert.match(stderr, /packaging stopped at the download step: Electron's prebuilt runtime .* cannot be downloaded on this machine/);
    assert.match(stderr, new RegExp(`electron-v${version.replace(/\./g, '\\.')}-`));
  });
});
