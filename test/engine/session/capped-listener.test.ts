/**
 * Both listeners a stranger can reach (the responder and the iperf3 server)
 * hold at most `maxConnections` at once: one past the cap is closed at accept
 * and reported, and a place frees up when a held connection goes. Silent
 * connections are what a flood looks like: they never send a header or cookie.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { Iperf3Server } from '../../../electron/engine/iperf3/iperf3-server.js';
import { startResponder } from '../../helpers/net.js';

const CAP = 3;

interface Held {
  socket: net.Socket;
  closed: Promise<void>;
  isClosed: () => boolean;
}

/** A connection that says nothing; `closed` settles when the server ends it. */
async function silent(port: number): Promise<Held> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((r) => socket.once('connect', r));
  let gone = false;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve(void (gone = true))));
  return { socket, closed, isClosed: () => gone };
}

/** Resolves true if `p` settles within `ms`. */
function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
}

/** Hold CAP silent connections, then show the next is closed at once and the held ones are not. */
async function assertCapped(port: number, rejected: string[]): Promise<Held[]> {
  const held: Held[] = [];
  for (let i = 0; i < CAP; i++) held.push(await silent(port));
  const extra = await silent(port);
  held.push(extra);
  assert.equal(await within(extra.closed, 3000), true, `connection ${CAP + 1} is closed at accept`);
  assert.equal(
    held.slice(0, CAP).some((h) => h.isClosed()),
    false,
    'the held connections stay (their identify deadline is long)',
  );
  assert.ok(
    rejected.some((why) => why.includes(`over the cap of ${CAP} connections`)),
    `reported: ${rejected.join(' | ')}`,
  );
  // One goes: a new connection is held again.
  held[0]?.socket.destroy();
  await held[0]?.closed;
  await new Promise((r) => setTimeout(r, 50));
  const again = await silent(port);
  held.push(again);
  assert.equal(await within(again.closed, 300), false, 'a freed place is taken again');
  return held;
}

describe('listeners cap the connections they hold', { timeout: 30_000 }, () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it(`the iperf3 server closes connection ${CAP + 1} at accept`, async () => {
    const server = new Iperf3Server({ port: 0, host: '127.0.0.1', cookieTimeoutMs: 20_000, maxConnections: CAP });
    const rejected: string[] = [];
    server.on('rejected', (_peer, why) => rejected.push(why));
    const { port } = await server.listen();
    cleanups.push(() => server.close());
    const held = await assertCapped(port, rejected);
    cleanups.push(() => held.forEach((h) => h.socket.destroy()));
  });

  it(`the responder closes connection ${CAP + 1} at accept`, async () => {
    const { responder, port } = await startResponder({ identifyTimeoutMs: 20_000, maxConnections: CAP });
    const rejected: string[] = [];
    responder.on('rejected', (_peer, why) => rejected.push(why));
    cleanups.push(() => responder.close());
    const held = await assertCapped(port, rejected);
    cleanups.push(() => held.forEach((h) => h.socket.destroy()));
  });
});
