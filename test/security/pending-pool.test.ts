/**
 * The pending pool's eviction order, on fake sockets and an injected clock:
 * a connection only just accepted is not idle; at the cap the oldest of the
 * largest share goes, and an address's strikes count in its share.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type net from 'node:net';
import { describe, it } from 'node:test';
import { PendingPool, type PendingTicket } from '../../electron/security/pending-pool.js';

function sock(address: string, name: string): net.Socket {
  const s = new EventEmitter() as EventEmitter & { remoteAddress: string; name: string };
  s.remoteAddress = address;
  s.name = name;
  return s as unknown as net.Socket;
}

function pool(cap: number) {
  let now = 0;
  const dropped: string[] = [];
  const p = new PendingPool({
    cap,
    perAddress: 8,
    peerReserve: 8,
    isPeerAddress: (a) => a === '10.0.0.1',
    onDrop: (s) => dropped.push((s as unknown as { name: string }).name),
    graceMs: 1000,
    strikeHalfLifeMs: 30_000,
    now: () => now,
  });
  const admit = (address: string, name: string, active = true): PendingTicket => {
    const t = p.admit(sock(address, name));
    if (active) t.advance('bytes');
    return t;
  };
  return { p, dropped, admit, advance: (ms: number) => (now += ms) };
}

describe('pending pool', () => {
  it('a controller just accepted is not the idle one evicted: an idle connection past its grace goes first, else the oldest of the largest share', () => {
    const { dropped, admit, advance } = pool(4);
    admit('127.0.0.2', 'a1', false);
    admit('127.0.0.3', 'b1');
    admit('127.0.0.3', 'b2');
    advance(2000); // a1 is idle past its grace
    admit('127.0.0.1', 'controller', false); // nothing read yet
    admit('127.0.0.4', 'c1');
    assert.deepEqual(dropped, ['a1']);
    admit('127.0.0.5', 'd1');
    assert.deepEqual(dropped, ['a1', 'b1'], '127.0.0.3 holds the most');
  });

  it('40 addresses with one connection each, back after every drop: the controller is never evicted', () => {
    const { dropped, admit, advance } = pool(32);
    for (let a = 0; a < 31; a++) admit(`127.0.1.${a}`, `x${a}`);
    admit('127.0.0.1', 'controller'); // its ClientHello was read
    // Every arrival evicts one; the evicted address comes back 1 ms later, with a strike now.
    for (let i = 0; i < 2000 && !dropped.includes('controller'); i++) {
      advance(1);
      const back = dropped[i - 1] ?? 'x0';
      admit(`127.0.1.${back.slice(1)}`, back);
    }
    assert.ok(!dropped.includes('controller'), `the controller was evicted after ${dropped.length} drops`);
    assert.ok(dropped.length > 1900);
  });

  it('equal shares and no strikes yet: a newcomer not read yet is not the least advanced; the oldest read one goes', () => {
    const { dropped, admit, advance } = pool(3);
    admit('127.0.0.2', 'a');
    admit('127.0.0.3', 'b');
    advance(5);
    admit('127.0.0.1', 'controller', false); // accepted, its ClientHello not read yet
    admit('127.0.0.4', 'c');
    assert.deepEqual(dropped, ['a']);
    admit('127.0.0.5', 'd', false);
    assert.deepEqual(dropped, ['a', 'b']);
  });

  it('a fresh address for every attacker connection: a controller whose whole ClientHello was read outlasts stalled fragments', () => {
    const { dropped, admit, advance } = pool(32);
    for (let a = 0; a < 31; a++) admit(`10.1.0.${a}`, `x${a}`);
    admit('127.0.0.1', 'controller').advance('hello');
    for (let i = 0; i < 2000 && !dropped.includes('controller'); i++) {
      advance(1);
      admit(`10.2.${i >> 8}.${i & 255}`, `fresh${i}`); // never seen before: no strikes
    }
    assert.ok(!dropped.includes('controller'), `the controller was evicted after ${dropped.length} drops`);
  });

  it('a peer address is never evicted by strangers; a junk strike weighs on its address', () => {
    const { dropped, admit } = pool(2);
    admit('10.0.0.1', 'peer');
    admit('127.0.0.2', 's1');
    const junk = admit('127.0.0.3', 'junk');
    junk.strike();
    admit('127.0.0.4', 's2');
    assert.deepEqual(dropped, ['junk'], 'one each, the struck address has the larger share');
    admit('127.0.0.5', 's3');
    assert.ok(!dropped.includes('peer'));
  });
});
