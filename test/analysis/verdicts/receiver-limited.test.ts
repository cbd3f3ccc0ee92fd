/**
 * Receiver-limited: the receiver's advertised window stayed far below what its receive buffer allowed,
 * so its application (or CPU) did not read fast enough. (A reader starved of CPU by a quota is recorded
 * and tested in receiver-starved.test.ts: on a fast path it keeps the window open and delays the ACKs
 * instead, so it is told from its thread's run-queue wait.) The test takes the recorded rmem-cubic run
 * (20 Mbit/s, 40 ms, CUBIC) and gives its receiver a 1 MiB buffer it did not use, as a slow reader's run reads.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosed, recorded } from './recorded.js';

describe('receiver-limited', () => {
  it('a window far below the receive buffer: the receiving application, not buffers, is advised', () => {
    const { result } = recorded('rmem-cubic');
    for (const s of result.streams) if (s.receive?.socket) s.receive.socket.rcvBufBytes = 1_048_576;
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'receiver-limited', d.sentence);
    assert.match(d.sentence, /advertised only 20,224 B although its receive buffer was 1,048,576 B/);
    assert.match(d.sentence, /CPU was not measured on the receiving side\./);
    assert.deepEqual(
      advice.map((a) => `${a.side} ${a.topic}`),
      ['responder application'],
    );
  });

  it('the same window with the small buffer the capped tcp_rmem gave: window-limited (the OS capped it)', () => {
    assert.equal(diagnosed(recorded('rmem-cubic').result).d.verdict, 'window-limited');
  });
});
