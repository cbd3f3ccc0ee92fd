/**
 * A data worker works with the addon it is given, and nothing else: its
 * stream sockets neither look up the process's addon nor keep a timer of
 * their own. The advertised-window poller runs on the worker's clock (mock
 * timers here) and ends with the worker's results.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import { Harness, Peer, initMsg, mockTime } from './harness.js';
import { requireNative, skipWithoutNative } from '../../helpers/native.js';

const WINDOW_BYTES = 64 * 1024;

describe('data worker: the addon it is given', { timeout: 20_000 }, () => {
  const peer = new Peer();
  afterEach(() => {
    mock.timers.reset();
    peer.close();
  });

  it('given no addon, a window request falls back on a plain connect and its report says why (never the process addon)', async () => {
    const port = await peer.listen();
    mockTime();
    const h = new Harness(initMsg('send', { streams: 1, windowBytes: WINDOW_BYTES }), null, 'node');
    await h.connect(1, port, 100_000);
    h.start();
    const done = await h.next('done');
    const socket = done.streams[0]?.socket;
    assert.ok(socket, 'the stream reports its socket');
    assert.equal(socket.appliedBeforeHandshake, false, 'no window before the handshake without an addon');
    assert.equal(socket.windowClampBytes, undefined, 'no clamp without an addon');
    assert.equal(socket.sndBufBytes, null, 'no buffer reading without an addon');
    const reasons = socket.unavailable.filter((u) => u.field === 'sndBufBytes').map((u) => u.reason);
    assert.deepEqual(reasons, ['no native socket addon was given to this worker']);
    assert.equal(h.worker.clampPoller.size, 0);
  });

  it("given the addon, the clamp is kept on the worker's clock until its results are out", { skip: skipWithoutNative }, async (t) => {
    const api = requireNative();
    if (!api.windowClamp) return t.skip('no advertised-window clamp on this OS');
    const port = await peer.listen();
    mockTime();
    const h = new Harness(initMsg('send', { streams: 1, windowBytes: WINDOW_BYTES }), api, 'node');
    await h.connect(1, port, null);
    assert.equal(h.worker.clampPoller.size, 1, 'the connected stream is watched');
    h.start();
    // The poll timer is the worker's (mocked) interval: a tick of the mock clock runs it.
    mock.timers.tick(5);
    assert.equal(h.worker.clampPoller.size, 1, 'still in its first minute');
    h.worker.handle({ type: 'stop', graceMs: 1000 });
    await h.next('done');
    assert.equal(h.worker.clampPoller.size, 0, 'the poller let go of every watch with the results');
  });

  it("given no addon, its streams start on Node's loop (never a native loop that must fall back)", async (t) => {
    if (process.env.LONGHAUL_DATA_PATH === 'node') return t.skip('LONGHAUL_DATA_PATH=node chooses Node anyway');
    const port = await peer.listen();
    mockTime();
    const h = new Harness(initMsg('send', { streams: 1 }), null, 'chosen');
    await h.connect(1, port, 100_000);
    h.start();
    const done = await h.next('done');
    assert.equal(done.streams[0]?.io, 'node');
    assert.deepEqual(h.warnings, [], 'no fallback from a native loop chosen with the process addon');
  });
});
