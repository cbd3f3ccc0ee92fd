/**
 * Browser-mode server: 127.0.0.1 only, a one-time launch token traded for an
 * HttpOnly, SameSite=Strict cookie that guards pages and the WebSocket, other
 * Host names and origins are refused, the page gets a strict CSP, no path
 * escapes the renderer folder, and calls and errors cross the socket intact.
 */
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import type { WireMessage } from '../../electron/contract/api.js';
import { startUiServer, type UiServer } from '../../electron/ui-server/server.js';

function get(
  port: number,
  p: string,
  host = `127.0.0.1:${port}`,
  cookie?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: p, headers: { host, ...(cookie ? { cookie } : {}) } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('GET timed out')));
  });
}

/** Open a socket; resolve with it, or with the HTTP status that refused it. */
function openWs(url: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, handshakeTimeout: 5000 });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', reject);
  });
}

function call(ws: WebSocket, id: number, name: string, req: unknown): Promise<WireMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no reply to ${name}`)), 5000);
    ws.on('message', function onMessage(data) {
      const m = JSON.parse(data.toString()) as WireMessage;
      if (m.kind === 'reply' && m.id === id) {
        clearTimeout(timer);
        ws.off('message', onMessage);
        resolve(m);
      }
    });
    ws.send(JSON.stringify({ kind: 'call', id, name, req }));
  });
}

describe('browser-mode server', { timeout: 20_000 }, () => {
  let dir: string;
  let server: UiServer;
  let wsUrl: string;
  let cookie: string;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-uiserver-'));
    const ui = path.join(dir, 'ui');
    await mkdir(path.join(ui, 'assets'), { recursive: true });
    await writeFile(path.join(ui, 'index.html'), '<!doctype html><title>t</title>');
    await writeFile(path.join(ui, 'assets', 'a.js'), 'export {}');
    await writeFile(path.join(dir, 'secret.txt'), 'secret');
    server = await startUiServer({ port: 0, dataDir: path.join(dir, 'data'), rendererDir: ui });
    wsUrl = `ws://127.0.0.1:${server.port}/ws`;
    const launch = await get(server.port, new URL(server.url).pathname + new URL(server.url).search);
    cookie = String(launch.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and prints a URL with a long random one-time token', () => {
    const u = new URL(server.url);
    assert.equal(u.hostname, '127.0.0.1');
    assert.ok((u.searchParams.get('token') ?? '').length >= 32);
  });

  it('trades the launch token for an HttpOnly, SameSite=Strict cookie once, and redirects to the bare address', async () => {
    assert.match(cookie, new RegExp(`^longhaul_${server.port}=[A-Za-z0-9_-]{40,}$`));
    const again = await get(server.port, new URL(server.url).pathname + new URL(server.url).search);
    assert.equal(again.status, 403, 'a second use of the launch URL is refused');
    assert.match(again.body, /already used/);
    assert.equal((await get(server.port, '/?token=wrong')).status, 403);
    assert.equal((await get(server.port, '/')).status, 403, 'no cookie, no page');
  });

  it('sends a browser already let in home when it opens the link again, and lets another browser in only with a new link, once', async () => {
    const launch = new URL(server.url).pathname + new URL(server.url).search;
    const home = await get(server.port, launch, undefined, cookie);
    assert.equal(home.status, 303, 'the same browser (its cookie) opening the used link again');
    assert.equal(home.headers.location, '/');
    assert.equal(home.headers['set-cookie'], undefined, 'nothing traded');
    const link = new URL(server.newLink());
    assert.notEqual(link.searchParams.get('token'), new URL(server.url).searchParams.get('token'));
    const other = await get(server.port, link.pathname + link.search);
    assert.equal(other.status, 303);
    assert.equal(String(other.headers['set-cookie']?.[0]).split(';')[0], cookie, 'the same session cookie');
    const third = await get(server.port, link.pathname + link.search);
    assert.equal(third.status, 403, 'the new link is single-use too');
    assert.match(third.body, /already used by another browser.*press Enter in the terminal/);
  });

  it('the launch answer: 303 to /, the cookie HttpOnly and SameSite=Strict', async () => {
    const other = await startUiServer({ port: 0, dataDir: path.join(dir, 'data2'), rendererDir: path.join(dir, 'ui') });
    try {
      const u = new URL(other.url);
      const r = await get(other.port, u.pathname + u.search);
      assert.equal(r.status, 303);
      assert.equal(r.headers.location, '/');
      const set = String(r.headers['set-cookie']?.[0]);
      assert.match(set, /; HttpOnly/);
      assert.match(set, /; SameSite=Strict/);
      assert.match(set, /; Path=\//);
      assert.ok(!set.startsWith(`longhaul_${server.port}=`), 'each server has its own cookie name (cookies are per host, not per port)');
    } finally {
      await other.close();
    }
  });

  it('serves the page with a strict CSP, and nothing outside the renderer folder', async () => {
    const page = await get(server.port, '/', undefined, cookie);
    assert.equal(page.status, 200);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, new RegExp(`connect-src ws://127.0.0.1:${server.port}`));
    assert.doesNotMatch(csp, /unsafe/);
    assert.equal((await get(server.port, '/assets/a.js', undefined, cookie)).status, 200);
    assert.equal((await get(server.port, '/../secret.txt', undefined, cookie)).status, 404);
    assert.equal((await get(server.port, '/%2e%2e/secret.txt', undefined, cookie)).status, 404);
    assert.equal((await get(server.port, '/%E0%A4%A', undefined, cookie)).status, 400); // malformed escape: an answer, not a crash
    assert.equal((await get(server.port, '/', `evil.example:${server.port}`, cookie)).status, 421);
  });

  it('refuses sockets without the cookie, with a wrong one, a foreign origin or Host, and with the old URL token', async () => {
    assert.equal(await openWs(wsUrl), 403);
    assert.equal(await openWs(wsUrl, { Cookie: `longhaul_${server.port}=wrong` }), 403);
    assert.equal(await openWs(`${wsUrl}?token=${new URL(server.url).searchParams.get('token')}`), 403);
    assert.equal(await openWs(wsUrl, { Cookie: cookie, Origin: 'http://evil.example' }), 403);
    assert.equal(await openWs(wsUrl, { Cookie: cookie, Host: `attacker.example:${server.port}` }), 403);
  });

  it('carries calls and coded errors; closes on garbage', async () => {
    const ws = await openWs(wsUrl, { Cookie: cookie, Origin: `http://127.0.0.1:${server.port}` });
    assert.ok(ws instanceof WebSocket);
    try {
      const info = await call(ws, 1, 'systemInfo', null);
      assert.ok(info.kind === 'reply' && info.ok);
      if (info.kind === 'reply' && info.ok) assert.equal((info.res as { mode: string }).mode, 'browser');
      const bad = await call(ws, 2, 'loadResult', { id: 'nope' });
      assert.ok(bad.kind === 'reply' && !bad.ok && bad.error.code === 'LH_ERR_BAD_ARGUMENT');
      const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
      ws.send(JSON.stringify({ kind: 'call', id: 3, name: 'rm -rf', req: null }));
      assert.equal(await closed, 1003);
    } finally {
      ws.terminate();
    }
  });
});
