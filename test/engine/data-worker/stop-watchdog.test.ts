/**
 * The stop watchdog of a data worker, on mock timers: after a stop, a stream
 * that still moves bytes is waited for; one idle for the grace is cut and its
 * loss reported; a receiver that has its target ends cleanly at once.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import { Harness, Peer, fakeNative, initMsg, mockTime, until } from './harness.js';

describe('data worker: stop watchdog', { timeout: 20_000 }, () => {
  const peer = new Peer();
  afterEach(() => {
    mock.timers.reset();
    peer.close();
  });

  it('waits while a receiver still makes progress, cuts it after the grace without, and reports the loss', async () => {
    const port = await peer.listen();
    mockTime();
    const native = fakeNative();
    const h = new Harness(initMsg('receive', { streams: 1 }), native.api, 'native');
    await h.connect(1, port);
    const pump = native.pumps[0]!;
    h.start();
    pump.bytes = 1000;
    h.worker.handle({ type: 'stop', graceMs: 1000 });
    // Checked every min(250, grace) ms: each check that sees new bytes restarts the grace.
    for (let i = 0; i < 8; i++) {
      mock.timers.tick(250);
      pump.bytes += 500;
    }
    assert.equal(h.sent('done').length, 0, 'a stream moving bytes after the stop is not cut');
    mock.timers.tick(250); // the last change is seen here: the grace starts
    mock.timers.tick(750);
    assert.equal(h.sent('done').length, 0, 'not cut before the grace is over');
    assert.equal(pump.stops, 0);
    mock.timers.tick(250);
    const done = await h.next('done');
    assert.ok(pump.stops >= 1, 'the native loop was asked to stop');
    const end = done.streams[0]!;
    assert.equal(end.bytes, 5000);
    assert.equal(end.io, 'native');
    assert.equal(end.error?.code, 'LH_ERR_DATA_STREAM');
    assert.match(end.error?.message ?? '', /^stream 1: no progress for 1000 ms after the stop, and no end from the responder at 127\.0\.0\.1:5211$/);
  });

  it('a receiver that has counted its target ends cleanly at the next 10 ms check, without waiting for the FIN', async () => {
    const port = await peer.listen();
    mockTime();
    const native = fakeNative();
    const h = new Harness(initMsg('receive', { streams: 1 }), native.api, 'native');
    await h.connect(1, port);
    h.start();
    const pump = native.pumps[0]!;
    pump.bytes = 4000;
    h.worker.handle({ type: 'stop', graceMs: 5000, receiveTargets: [[1, 5000]] });
    mock.timers.tick(10);
    assert.equal(h.sent('done').length, 0, 'short of its target: still open');
    pump.bytes = 5000;
    mock.timers.tick(10);
    const done = await h.next('done');
    assert.equal(done.streams[0]!.error, null);
    assert.equal(done.streams[0]!.bytes, 5000);
  });

  it('a sender asked to stop ends its stream at once (its loop stops, then our FIN)', async () => {
    const port = await peer.listen();
    mockTime();
    const native = fakeNative();
    const h = new Harness(initMsg('send', { streams: 1 }), native.api, 'native');
    await h.connect(1, port);
    h.start();
    await until(() => native.pumps.length === 1); // once the header is on the wire
    const pump = native.pumps[0]!;
    pump.bytes = 7000;
    h.worker.handle({ type: 'stop', graceMs: 1000 });
    assert.equal(pump.stops, 1);
    const done = await h.next('done');
    assert.equal(done.streams[0]!.error, null);
    assert.equal(done.streams[0]!.bytes, 7000);
    await until(() => peer.sockets[0]?.readableEnded === true);
  });
});
