/**
 * UDP through the link proxy on real loopback sockets: the relay works as a NAT (a datagram from any
 * local socket reaches the target, the target's answers come back to that socket), each direction
 * through its own chain, and every datagram is accounted for (delivered, lost on the link, dropped
 * at its queue, or lost by the emulator itself).
 * Bounds: a delay is a lower bound (a datagram never arrives before it); upper bounds are a busy
 * PC's (2 s for a 100 ms link).
 */
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import { LinkProxy } from '../../../electron/proxy/link-proxy.js';
import { parseLinkSpec } from '../../../electron/proxy/link-settings.js';

async function bound(): Promise<dgram.Socket> {
  const s = dgram.createSocket('udp4');
  s.bind(0, '127.0.0.1');
  await once(s, 'listening');
  return s;
}

/** The next datagram on `s`, or a rejection after `ms`. */
function next(s: dgram.Socket, ms = 2000): Promise<{ msg: Buffer; atMs: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no datagram within ${ms} ms`)), ms);
    s.once('message', (msg) => {
      clearTimeout(timer);
      resolve({ msg, atMs: performance.now() });
    });
  });
}

describe('the link proxy relays UDP', { timeout: 30_000 }, () => {
  const cleanup: (() => unknown)[] = [];
  after(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it("both ways through each direction's delay, back to the socket that sent", async () => {
    const target = await bound();
    cleanup.push(() => target.close());
    // The target answers whoever sent (the relay's back socket), as a Longhaul sender answers a hello.
    target.on('message', (msg, r) => target.send(Buffer.concat([Buffer.from('re:'), msg]), r.port, r.address));
    const link = parseLinkSpec({ up: [{ type: 'delay', delayMs: 100 }], down: [{ type: 'delay', delayMs: 50 }] });
    const proxy = new LinkProxy({ target: { host: '127.0.0.1', port: 5 }, link });
    await proxy.listen();
    cleanup.push(() => proxy.close());
    const port = await proxy.forwardUdp(target.address().port);
    assert.equal(await proxy.forwardUdp(target.address().port), port, 'asking again reuses the relay');
    const client = await bound();
    cleanup.push(() => client.close());
    const t0 = performance.now();
    const reply = next(client);
    client.send('hello', port, '127.0.0.1');
    const { msg, atMs } = await reply;
    assert.equal(msg.toString(), 're:hello');
    assert.ok(atMs - t0 >= 150 - 1, `up 100 ms + down 50 ms: ${(atMs - t0).toFixed(1)} ms`);
    const f = proxy.udpFigures();
    assert.deepEqual(f?.up, {
      datagrams: 1,
      delivered: 1,
      lostOnLink: 0,
      queueDropped: 0,
      emulatorDropped: process.platform === 'linux' ? 0 : null,
      sendErrors: 0,
    });
    assert.equal(f?.down?.delivered, 1);
  });

  it('a datagram burst above the rate: the queue drops the tail, periodic loss drops every 10th, and every one is accounted for', async () => {
    const target = await bound();
    cleanup.push(() => target.close());
    let arrived = 0;
    target.on('message', () => arrived++);
    // 8 Mbit/s wire; 958-byte datagrams are 1,000-byte frames; a 20-frame queue.
    const link = parseLinkSpec({
      up: [
        { type: 'loss', lossRatio: 0.1, pattern: 'periodic' },
        { type: 'rate', rateBitsPerSec: 8e6, queueBytes: 20_000 },
      ],
      down: [],
    });
    const proxy = new LinkProxy({ target: { host: '127.0.0.1', port: 5 }, link });
    await proxy.listen();
    cleanup.push(() => proxy.close());
    const port = await proxy.forwardUdp(target.address().port);
    const client = await bound();
    cleanup.push(() => client.close());
    const payload = Buffer.alloc(958);
    for (let i = 0; i < 100; i++) client.send(payload, port, '127.0.0.1');
    // 100 datagrams arrive within a few ms: 10 lost, and of the 90 the queue takes 20 (+ what drained meanwhile).
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (proxy.udpFigures()?.up?.datagrams ?? 0) < 100) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200)); // the queue (≤ 20 frames: 20 ms) drains
    const up = proxy.udpFigures()?.up;
    assert.ok(up, 'figures');
    const emulator = up.emulatorDropped ?? 0;
    assert.equal(up.datagrams + emulator, 100, JSON.stringify(up));
    assert.equal(up.lostOnLink, Math.floor(up.datagrams / 10), 'every 10th of those that reached the link');
    assert.ok(up.queueDropped >= 40, `a 20-frame queue cannot take a 90-datagram burst: ${JSON.stringify(up)}`);
    assert.equal(up.delivered + up.lostOnLink + up.queueDropped, up.datagrams, JSON.stringify(up));
    assert.equal(arrived, up.delivered);
  });

  it('bypass: no stage at all', async () => {
    const target = await bound();
    cleanup.push(() => target.close());
    const proxy = new LinkProxy({ target: { host: '127.0.0.1', port: 5 }, link: parseLinkSpec({ up: [{ type: 'delay', delayMs: 2000 }], down: [] }) });
    await proxy.listen();
    cleanup.push(() => proxy.close());
    const port = await proxy.forwardUdp(target.address().port);
    proxy.setBypass(true);
    const client = await bound();
    cleanup.push(() => client.close());
    const got = next(target, 1500);
    client.send('now', port, '127.0.0.1');
    assert.equal((await got).msg.toString(), 'now', 'through at once, not after the 2 s delay');
  });
});
