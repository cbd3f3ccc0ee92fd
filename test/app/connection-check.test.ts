/** Connection check: real sockets on 127.0.0.1 for reachable and refused; every OS code mapped. */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { checkConnection, verdictOf } from '../../electron/app/connection-check.js';

describe('connection check', { timeout: 15_000 }, () => {
  it('says reachable for a listening port, with the connect time', async () => {
    const server = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const c = await checkConnection('127.0.0.1', port, 3000);
      assert.equal(c.verdict, 'reachable');
      assert.ok(c.elapsedMs >= 0 && c.elapsedMs < 3000);
      assert.match(c.detail, new RegExp(`127.0.0.1:${port} accepted`));
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('says refused for a closed port and tells what to start', async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise((r) => server.close(r)); // now nothing listens there
    const c = await checkConnection('127.0.0.1', port, 3000);
    assert.equal(c.verdict, 'refused');
    assert.match(c.detail, /longhaul listen/);
    assert.match(c.detail, /ECONNREFUSED/);
  });

  it('maps OS codes to verdicts', () => {
    assert.equal(verdictOf('ECONNREFUSED'), 'refused');
    assert.equal(verdictOf('ETIMEDOUT'), 'timed-out');
    for (const c of ['EHOSTUNREACH', 'ENETUNREACH', 'EACCES', 'EPERM']) assert.equal(verdictOf(c), 'firewall-suspected', c);
    for (const c of ['ENOTFOUND', 'EAI_AGAIN']) assert.equal(verdictOf(c), 'unknown-host', c);
  });
});
