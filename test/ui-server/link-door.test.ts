/**
 * `longhaul ui --link`: the running server leaves a key only this user can read, and answers a new
 * single-use link to a request carrying it, and nothing to one without; the file goes with the server.
 */
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { askRunningUi } from '../../electron/ui-server/link-door.js';
import { startUiServer } from '../../electron/ui-server/server.js';

function post(port: number, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/link', method: 'POST', headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('POST timed out')));
    req.end();
  });
}

describe('link door', { timeout: 20_000 }, () => {
  it('gives the same user a new single-use link from the running server, and nobody else', async (t) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-linkdoor-'));
    const ui = path.join(dir, 'ui');
    await mkdir(ui);
    await writeFile(path.join(ui, 'index.html'), '<!doctype html><title>t</title>');
    const trust = path.join(dir, 'trust');
    const server = await startUiServer({ port: 0, dataDir: path.join(dir, 'data'), rendererDir: ui, linkDoorDir: trust });
    t.after(async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    });
    const file = path.join(trust, `ui-${server.port}.json`);
    assert.ok(existsSync(file));
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o077, 0, 'readable by its owner only');
    const link = await askRunningUi(trust, null);
    assert.match(link, new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[A-Za-z0-9_-]{32,}$`));
    assert.notEqual(link, server.url);
    assert.equal(await askRunningUi(trust, server.port).then((l) => l !== link), true, 'each ask is a new link');
    assert.equal(await post(server.port), 403, 'no key, no link');
    assert.equal(await post(server.port, { 'x-longhaul-link-key': 'guess' }), 403);
    await assert.rejects(askRunningUi(trust, server.port + 1 > 65535 ? 1 : server.port + 1), /no running `longhaul ui` on port/);
    await server.close();
    assert.equal(existsSync(file), false, 'the key goes with the server');
    await assert.rejects(askRunningUi(trust, null), /none is running for this user/);
  });
});
