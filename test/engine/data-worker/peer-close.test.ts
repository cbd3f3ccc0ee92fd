/**
 * A sender's peer closes the connection while the native byte loop still holds
 * the stream (the race behind CI's "the peer sent nothing for 10 s in state
 * running" after a sub-100 ms run): the responder had every byte, finished at
 * its cap, and its worker's exit closed the socket before the sending thread's
 * end reached JS. The stream must still end, and only a peer that closed
 * before the budget was in the kernel is an error. With the fake addon the
 * loop ends only when the test (or a stop) says, so the order is forced.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import { Harness, Peer, fakeNative, initMsg, mockTime, until } from './harness.js';

const BUDGET = 1_000_000;

describe('data worker: the peer closes while the native loop holds a sender', { timeout: 20_000 }, () => {
  const peer = new Peer();
  afterEach(() => {
    mock.timers.reset();
    peer.close();
  });

  async function closedUnderTheLoop(handedToKernel: number): Promise<{ error: string | null; bytes: number }> {
    const port = await peer.listen();
    mockTime();
    const native = fakeNative();
    const h = new Harness(initMsg('send', { streams: 1 }), native.api, 'native');
    await h.connect(1, port, BUDGET);
    h.start();
    await until(() => native.pumps.length === 1);
    const pump = native.pumps[0]!;
    pump.bytes = handedToKernel;
    // The peer's FIN, then its close: Node ends our side itself ('end'), then 'close' comes,
    // all before the loop has ended (the fake ends only on a stop).
    await until(() => peer.sockets.length === 1);
    peer.sockets[0]!.end(() => peer.sockets[0]!.destroy());
    // Bounded in event-loop turns, not time: the end is a few turns away or never (the old deadlock).
    await until(() => h.sent('done').length === 1);
    const done = await h.next('done');
    const end = done.streams[0]!;
    return { error: end.error?.message ?? null, bytes: end.bytes };
  }

  it('every byte in the kernel: the stream ends complete, no error', async () => {
    const r = await closedUnderTheLoop(BUDGET);
    assert.equal(r.error, null);
    assert.equal(r.bytes, BUDGET);
  });

  it('the mirror: half the budget in the kernel: the stream ends, as closed by the peer before the end', async () => {
    const r = await closedUnderTheLoop(BUDGET / 2);
    assert.equal(r.error, 'stream 1: closed by the responder at 127.0.0.1:5211 before the end of the run');
    assert.equal(r.bytes, BUDGET / 2);
  });
});
