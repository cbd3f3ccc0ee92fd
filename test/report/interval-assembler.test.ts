import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IntervalAssembler } from '../../electron/report/interval-assembler.js';

describe('interval assembler', { timeout: 10_000 }, () => {
  const plan = [
    { id: 0, sender: 'controller' as const },
    { id: 1, sender: 'responder' as const },
  ];

  it('pairs both sides by index, in order, with per-interval deltas', () => {
    const a = new IntervalAssembler(plan, 'bidir');
    // controller sends stream 0, receives stream 1; responder the other way round
    assert.deepEqual(
      a.add(
        {
          index: 1,
          t: 1.0,
          final: false,
          streams: [
            [0, 1000, 1],
            [1, 400, 4],
          ],
        },
        'controller',
      ),
      [],
    );
    assert.deepEqual(
      a.add(
        {
          index: 2,
          t: 2.0,
          final: false,
          streams: [
            [0, 3000, 2],
            [1, 900, 9],
          ],
        },
        'controller',
      ),
      [],
    );
    const first = a.add(
      {
        index: 1,
        t: 1.001,
        final: false,
        streams: [
          [0, 800, 8],
          [1, 500, 1],
        ],
      },
      'responder',
    );
    assert.equal(first.length, 1);
    assert.deepEqual(first[0]?.streams, [
      { id: 0, sentBytes: 1000, receivedBytes: 800, receiveCompletions: 8 },
      { id: 1, sentBytes: 500, receivedBytes: 400, receiveCompletions: 4 },
    ]);
    assert.equal(first[0]?.t, 1.0);
    assert.equal(first[0]?.responderT, 1.001);
    const second = a.add(
      {
        index: 2,
        t: 2.002,
        final: false,
        streams: [
          [0, 2900, 29],
          [1, 1000, 2],
        ],
      },
      'responder',
    );
    assert.deepEqual(second[0]?.streams[0], { id: 0, sentBytes: 2000, receivedBytes: 2100, receiveCompletions: 21 });
    assert.equal(second[0]?.seconds, 1.0);
    assert.equal(second[0]?.receivedBytes, 2100 + 500);
    assert.equal(a.emittedIndex, 2);
  });

  it('ignores duplicates and leaves final samples to the result', () => {
    const a = new IntervalAssembler(plan, 'bidir');
    a.add(
      {
        index: 1,
        t: 1,
        final: false,
        streams: [
          [0, 10, 1],
          [1, 10, 1],
        ],
      },
      'controller',
    );
    assert.deepEqual(
      a.add(
        {
          index: 1,
          t: 1,
          final: false,
          streams: [
            [0, 99, 1],
            [1, 99, 1],
          ],
        },
        'controller',
      ),
      [],
    );
    assert.equal(
      a.add(
        {
          index: 1,
          t: 1,
          final: false,
          streams: [
            [0, 10, 1],
            [1, 10, 1],
          ],
        },
        'responder',
      )[0]?.streams[0]?.sentBytes,
      10,
    );
    a.add(
      {
        index: 2,
        t: 1.5,
        final: true,
        streams: [
          [0, 20, 2],
          [1, 20, 2],
        ],
      },
      'controller',
    );
    assert.deepEqual(
      a.add(
        {
          index: 2,
          t: 1.5,
          final: true,
          streams: [
            [0, 20, 2],
            [1, 20, 2],
          ],
        },
        'responder',
      ),
      [],
    );
    assert.equal(a.emittedIndex, 1);
  });
});
