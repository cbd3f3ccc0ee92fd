/**
 * How a sending worker drives its backlog bound (send-backlog.ts), on mock
 * timers: every sender's socket is bounded before its first byte, the bound
 * follows what the peer acknowledged (TCP_INFO through the addon), and a
 * stream that has finished leaves it.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import { INITIAL_LOWAT_BYTES, lowatFor } from '../../../electron/engine/data-plane/send-backlog.js';
import { Harness, Peer, fakeNative, initMsg, mockTime, until } from './harness.js';

describe('data worker: send backlog bound', { timeout: 20_000 }, () => {
  const peer = new Peer();
  afterEach(() => {
    mock.timers.reset();
    peer.close();
    delete process.env.LONGHAUL_SEND_BACKLOG;
  });

  it('bounds each sender at the start, follows the acknowledged rate, drops a finished stream', async () => {
    const port = await peer.listen();
    mockTime();
    const native = fakeNative();
    const h = new Harness(initMsg('send', { streams: 2, seconds: 10 }), native.api, 'native');
    await h.connect(1, port);
    await h.connect(2, port);
    h.start();
    await until(() => native.pumps.length === 2);
    const fds = native.lowat.map(([fd]) => fd);
    assert.equal(fds.length, 2);
    assert.deepEqual(
      native.lowat.map(([, b]) => b),
      [INITIAL_LOWAT_BYTES, INITIAL_LOWAT_BYTES],
    );
    assert.deepEqual(native.log, ['lowat', 'lowat', 'pump', 'pump'], 'bounded before the first byte');
    assert.deepEqual(native.pumps.map((p) => p.fd).sort(), [...fds].sort());

    // 1.25 MB acknowledged in 100 ms on each: 12.5 MB/s, a quarter second of it unsent.
    native.lowat.length = 0;
    for (const fd of fds) native.acked.set(fd, 1_250_000);
    mock.timers.tick(100);
    assert.deepEqual(
      native.lowat,
      fds.map((fd) => [fd, lowatFor(12_500_000)]),
    );

    // Stream 1's loop fails: it finishes at once and leaves the bound; stream 2 keeps it.
    const p1 = native.pumps.find((p) => p.fd === fds[0])!;
    p1.end(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), 'error');
    native.lowat.length = 0;
    for (const fd of fds) native.acked.set(fd, 1_250_000 + 250_000);
    mock.timers.tick(100);
    assert.deepEqual(native.lowat, [[fds[1], lowatFor(2_500_000)]], 'only the live stream is measured');

    h.worker.handle({ type: 'stop', graceMs: 1000 });
    const done = await h.next('done');
    const failed = done.streams.find((e) => e.error !== null);
    assert.match(failed?.error?.message ?? '', /: the data connection with the responder at 127\.0\.0\.1:5211 failed: ECONNRESET$/);
  });

  it('LONGHAUL_SEND_BACKLOG=unbounded leaves the kernel its own backlog', async () => {
    process.env.LONGHAUL_SEND_BACKLOG = 'unbounded';
    const port = await peer.listen();
    mockTime();
    const native = fakeNative();
    const h = new Harness(initMsg('send', { streams: 1, seconds: 10 }), native.api, 'native');
    await h.connect(1, port);
    h.start();
    await until(() => native.pumps.length === 1);
    mock.timers.tick(300);
    assert.deepEqual(native.lowat, []);
    h.worker.handle({ type: 'stop', graceMs: 1000 });
    await h.next('done');
  });
});
