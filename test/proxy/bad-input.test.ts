import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { LonghaulError } from '../../electron/util/errors.js';
import { parseLinkSpec } from '../../electron/proxy/link-settings.js';
import { readUntilClose, within } from '../helpers/net.js';
import { connect, patternBuffer, RELAYS, sendAll, sha256, startEcho, startProxy } from './helpers.js';

const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));

function cli(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 10_000 });
  return { status: r.status, stderr: r.stderr };
}

/** A port nothing listens on (bound, then closed). */
async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('proxy bad input', () => {
  it('rejects unknown stages, negative delays and a rate of 0 with LH_ERR_BAD_ARGUMENT', () => {
    assert.throws(() => parseLinkSpec({ up: [{ type: 'teleport' }], down: [] }), {
      code: 'LH_ERR_BAD_ARGUMENT',
      message: /unknown stage type "teleport".*known: delay, rate, window, slowstart, loss/,
    });
    assert.throws(() => parseLinkSpec({ up: [], down: [{ type: 'delay', delayMs: -1 }] }), { code: 'LH_ERR_BAD_ARGUMENT', message: /down\[0\].*negative/ });
    assert.throws(() => parseLinkSpec({ up: [{ type: 'rate', rateBitsPerSec: 0 }], down: [] }), { code: 'LH_ERR_BAD_ARGUMENT', message: /above 0/ });
    assert.throws(() => parseLinkSpec({ up: [{ type: 'delay', delayMs: 5, colour: 'red' }], down: [] }), { code: 'LH_ERR_BAD_ARGUMENT' });
    assert.throws(() => parseLinkSpec({ delayMs: -650, rateBitsPerSec: null, windowBytes: null, slowstart: false, lossRatio: 0 }), {
      code: 'LH_ERR_BAD_ARGUMENT',
      message: /negative/,
    });
  });

  it('the CLI names the bad flag and exits 2', { timeout: 30_000 }, () => {
    const cases: [string[], RegExp][] = [
      [['proxy', '--listen', '0', '--target', '127.0.0.1:9', '--rate', '0'], /--rate: must be above 0/],
      [['proxy', '--listen', '0', '--target', '127.0.0.1:9', '--delay', '-650ms'], /--delay: cannot be negative/],
      [['proxy', '--listen', '0', '--target', '127.0.0.1:9', '--loss', '70%'], /--loss: "70%": at most 50 %/],
      [['loopback', '--link', 'mars'], /unknown link preset "mars"/],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });

  it('a target that refuses: the client is closed and the proxy reports LH_ERR_REFUSED', { timeout: 15_000 }, async () => {
    const { proxy, port } = await startProxy(await deadPort(), { up: [], down: [] });
    const errors: LonghaulError[] = [];
    proxy.on('connection-error', (e) => errors.push(e));
    try {
      const s = await connect(port);
      const r = await readUntilClose(s, 5000);
      assert.ok(r.closed, 'the client connection is closed');
      assert.equal(errors[0]?.code, 'LH_ERR_REFUSED');
      assert.match(errors[0]!.message, /refused/);
    } finally {
      await proxy.close();
    }
  });

  for (const { name, relay, skip } of RELAYS) {
    it(`${name}: a target that vanishes mid-run: both sides are closed and LH_ERR_PEER_GONE is reported`, { timeout: 15_000, skip }, async () => {
      let received = 0;
      const server = net.createServer((t) => {
        t.on('error', () => undefined);
        t.on('data', (d: Buffer) => {
          received += d.length;
          if (received > 200_000) t.resetAndDestroy();
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const { proxy, port } = await startProxy((server.address() as net.AddressInfo).port, { up: [{ type: 'delay', delayMs: 5 }], down: [] }, relay);
      const errors: LonghaulError[] = [];
      proxy.on('connection-error', (e) => errors.push(e));
      const s = await connect(port);
      try {
        void sendAll(s, patternBuffer(1024 * 1024), 20).catch(() => undefined);
        const r = await readUntilClose(s, 5000);
        assert.ok(r.closed, 'the client connection is closed, not left hanging');
        await within(new Promise<void>((res) => (proxy.connectionCount === 0 ? res() : setTimeout(res, 200))), 2000, 'cleanup');
        assert.equal(proxy.connectionCount, 0);
        assert.equal(errors[0]?.code, 'LH_ERR_PEER_GONE');
      } finally {
        s.destroy();
        await proxy.close();
        await new Promise((r) => server.close(r));
      }
    });

    it(`${name}: a client that half-closes still gets every byte back, then the FIN`, { timeout: 15_000, skip }, async () => {
      const echo = await startEcho();
      const { proxy, port } = await startProxy(echo.port, { delayMs: 20, rateBitsPerSec: 50e6, windowBytes: 65_536, slowstart: false, lossRatio: 0 }, relay);
      const s = await connect(port, true);
      try {
        const data = patternBuffer(500_000, 9);
        const back = readUntilClose(s, 10_000);
        await within(sendAll(s, data), 10_000, 'send'); // ends our side: a half-close
        const r = await back;
        assert.ok(r.closed, 'the FIN came through after the data');
        assert.equal(r.data.length, data.length);
        assert.equal(sha256(r.data), sha256(data));
      } finally {
        s.destroy();
        await proxy.close();
        await echo.close();
      }
    });
  }
});
