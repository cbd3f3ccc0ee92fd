/**
 * The control channel's round-trip probe: a ping is answered with its pong in
 * any state, below the session (no state change, no "unexpected message"); it
 * does not re-arm the read timeout, so pinging cannot hold a stuck session
 * open; answers are capped per second; a pong is an event, not a message.
 * And the result's delay gains the control channel's figures.
 */
import assert from 'node:assert/strict';
import type net from 'node:net';
import { describe, it, mock } from 'node:test';
import { ControlChannel } from '../../electron/protocol/control-channel.js';
import { encodeFrame, FrameParser } from '../../electron/protocol/framing.js';
import type { LonghaulError } from '../../electron/util/errors.js';
import { attachControlDelay } from '../../electron/analysis/delay-summary.js';
import { controlQueueingMs, delaySentence } from '../../electron/contract/delay-info.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { MemorySocket } from '../helpers/memory-socket.js';

function written(socket: MemorySocket): { type: string; id?: number }[] {
  const p = new FrameParser(1 << 20);
  return socket.written.flatMap((b) => p.push(b) as { type: string; id?: number }[]);
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('control channel ping', () => {
  it('answers a ping in the hello state with its pong, and stays in hello', async () => {
    const socket = new MemorySocket();
    const ch = new ControlChannel(socket as unknown as net.Socket, { role: 'responder' });
    const failures: LonghaulError[] = [];
    const messages: string[] = [];
    ch.on('failure', (e) => failures.push(e));
    ch.on('message', (m) => messages.push(m.type));
    socket.push(encodeFrame({ type: 'ping', id: 7 }));
    await tick();
    assert.deepEqual(written(socket), [{ type: 'pong', id: 7 }]);
    assert.equal(ch.state, 'hello');
    assert.deepEqual(messages, [], 'not a session message');
    assert.equal(failures.length, 0);
    ch.destroy();
  });

  it('a pong is an event with its id', async () => {
    const socket = new MemorySocket();
    const ch = new ControlChannel(socket as unknown as net.Socket, { role: 'controller' });
    const pongs: number[] = [];
    ch.on('pong', (id) => pongs.push(id));
    socket.push(encodeFrame({ type: 'pong', id: 3 }));
    await tick();
    assert.deepEqual(pongs, [3]);
    ch.destroy();
  });

  it('pinging does not hold a silent session open: the state timeout still fires', async (t) => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    t.after(() => mock.timers.reset());
    const socket = new MemorySocket();
    const ch = new ControlChannel(socket as unknown as net.Socket, { role: 'responder', timeoutsMs: { hello: 1000 } });
    const failures: LonghaulError[] = [];
    ch.on('failure', (e) => failures.push(e));
    for (let i = 0; i < 9; i++) {
      socket.push(encodeFrame({ type: 'ping', id: i }));
      await tick();
      mock.timers.tick(100);
    }
    mock.timers.tick(100);
    assert.equal(failures[0]?.code, 'LH_ERR_TIMEOUT');
  });

  it('answers at most 16 pings a second', async () => {
    const socket = new MemorySocket();
    const ch = new ControlChannel(socket as unknown as net.Socket, { role: 'responder' });
    for (let i = 0; i < 40; i++) socket.push(encodeFrame({ type: 'ping', id: i }));
    await tick();
    const pongs = written(socket).filter((m) => m.type === 'pong').length;
    assert.ok(pongs >= 16 && pongs <= 32, `${pongs} pongs for 40 pings (a second boundary may fall inside)`);
    ch.destroy();
  });
});

describe("the result's delay with the control channel", () => {
  const base = (): Pick<LonghaulResult, 'directions' | 'delay'> => ({ directions: { controllerToResponder: {} as never } });

  it('min idle, median loaded, the queueing between, in the sentence', () => {
    const r = base();
    attachControlDelay(r, { idleMs: [22, 21, 25], loadedMs: [180, 150, 190, 170, 400] });
    assert.equal(r.delay?.controlIdleRttMs, 21);
    assert.equal(r.delay?.controlLoadedRttMs, 180);
    assert.deepEqual(r.delay?.controlPings, { idle: 3, loaded: 5 });
    assert.equal(controlQueueingMs(r.delay!), 159);
    assert.equal(r.delay?.idleSource, 'unknown', 'no TCP_INFO: its figures stay unknown, not made up');
    assert.match(delaySentence(r.delay!), /the control channel's ping: idle 21\.0 ms, under load 180 ms \(\+159 ms\)/);
  });

  it('no answers: unknown, never 0; an older peer (no pinger): nothing added', () => {
    const r = base();
    attachControlDelay(r, { idleMs: [], loadedMs: [] });
    assert.equal(r.delay?.controlIdleRttMs, null);
    assert.equal(controlQueueingMs(r.delay!), null);
    const old = base();
    attachControlDelay(old, null);
    assert.equal(old.delay, undefined);
  });
});
