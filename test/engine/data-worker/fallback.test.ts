/**
 * The native byte loop cannot start (simulated by the addon seam, not by
 * breaking the addon): the stream moves through Node's loop instead, says so
 * on stderr, and its end records io "node".
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { Harness, Peer, fakeNative, initMsg, mockTime, until } from './harness.js';

describe('data worker: native to Node fallback', { timeout: 20_000 }, () => {
  const peer = new Peer();
  // Mock timers only so that a failing test leaves no interval tick behind.
  beforeEach(() => mockTime());
  afterEach(() => {
    mock.timers.reset();
    peer.close();
  });

  it('a sender whose native loop throws at start sends its whole budget through Node', async () => {
    const port = await peer.listen();
    const native = fakeNative(() => {
      throw new Error('simulated: no thread');
    });
    const h = new Harness(initMsg('send', { streams: 1 }), native.api, 'native');
    await h.connect(1, port, 1_000_000);
    h.start();
    const done = await h.next('done');
    const end = done.streams[0]!;
    assert.equal(end.io, 'node');
    assert.equal(end.error, null);
    assert.equal(end.bytes, 1_000_000);
    assert.deepEqual(h.warnings, ['longhaul: stream 1 moves its bytes through Node: simulated: no thread']);
    await until(() => peer.received === 3 + 1_000_000);
  });

  it('a receiver on an addon build without a byte loop reads through Node until the FIN', async () => {
    const port = await peer.listen();
    const native = fakeNative(() => null);
    const h = new Harness(initMsg('receive', { streams: 2 }), native.api, 'native');
    await h.connect(1, port);
    await h.connect(2, port);
    h.start();
    await until(() => peer.sockets.length === 2);
    for (const s of peer.sockets) s.end(Buffer.alloc(300_000));
    const done = await h.next('done');
    assert.deepEqual(
      done.streams.map((e) => [e.id, e.io, e.bytes, e.error]),
      [
        [1, 'node', 300_000, null],
        [2, 'node', 300_000, null],
      ],
    );
    assert.equal(h.warnings.length, 2);
    assert.match(h.warnings[0]!, /this build of the addon has no byte loop$/);
  });

  it('no addon at all: the stream says so and still runs', async () => {
    const port = await peer.listen();
    const h = new Harness(initMsg('send', { streams: 1 }), null, 'native');
    await h.connect(1, port, 200_000);
    h.start();
    const done = await h.next('done');
    assert.equal(done.streams[0]!.io, 'node');
    assert.equal(done.streams[0]!.bytes, 200_000);
    assert.match(h.warnings[0]!, /the addon is not loaded$/);
  });
});
