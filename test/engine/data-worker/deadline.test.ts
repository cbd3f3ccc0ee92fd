/**
 * A time-limited sender ends at its deadline, on mock timers: Node's loop
 * stops writing and sends its FIN at the tick that reaches it; the native loop
 * is given the deadline itself.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import { Harness, Peer, fakeNative, initMsg, mockClock, mockTime, until } from './harness.js';

describe('data worker: deadline', { timeout: 20_000 }, () => {
  const peer = new Peer();
  afterEach(() => {
    mock.timers.reset();
    peer.close();
  });

  it("Node's loop: a 2 s sender writes until the 2 s tick, then ends its stream; every byte it counts reached the peer", async () => {
    const port = await peer.listen();
    mockTime();
    const h = new Harness(initMsg('send', { streams: 1, seconds: 2 }), null, 'node');
    await h.connect(1, port);
    h.start();
    await until(() => peer.received > 1_000_000); // real bytes on the wire
    mock.timers.tick(1000);
    assert.equal(h.sent('sample').length, 1);
    assert.equal(h.sent('done').length, 0, 'still sending before its deadline');
    mock.timers.tick(1000);
    const done = await h.next('done');
    const end = done.streams[0]!;
    assert.equal(end.error, null);
    assert.equal(end.io, 'node');
    assert.equal(end.lastT, 2, 'ended at its deadline (mock clock), s');
    await until(() => peer.sockets[0]?.readableEnded === true);
    assert.equal(peer.received, 3 + end.bytes, 'the header and every counted byte arrived, nothing after');
    const final = h.sent('sample').at(-1);
    assert.ok(final?.type === 'sample' && final.final && final.t === 2);
  });

  it('the native loop gets the deadline on the engine clock, and its end at the deadline sends our FIN', async () => {
    const port = await peer.listen();
    mockTime();
    const native = fakeNative();
    const h = new Harness(initMsg('send', { streams: 1, seconds: 1.5 }), native.api, 'native');
    await h.connect(1, port);
    const startNs = mockClock.nowNs();
    h.start();
    await until(() => native.pumps.length === 1);
    const pump = native.pumps[0]!;
    assert.equal(pump.opts.deadlineNs, startNs + 1_500_000_000n);
    assert.equal(pump.opts.budgetBytes, undefined);
    pump.bytes = 123_456;
    pump.firstNs = startNs + 1_000_000n;
    mock.timers.tick(1500);
    pump.end(null, 'deadline');
    const done = await h.next('done');
    const end = done.streams[0]!;
    assert.equal(end.bytes, 123_456);
    assert.equal(end.io, 'native');
    assert.equal(end.firstT, 0.001);
    assert.equal(end.lastT, 1.5);
    await until(() => peer.sockets[0]?.readableEnded === true);
  });
});
