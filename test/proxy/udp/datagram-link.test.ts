/** One direction of the emulated link as datagrams meet it, on a hand-driven clock: the wire's rate with UDP's headers, the tail-drop queue, real loss, delay that never reorders. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseStageConfig } from '../../../electron/proxy/registry.js';
import '../../../electron/proxy/stages/index.js';
import { DatagramLink, type DatagramFate } from '../../../electron/proxy/udp/datagram-link.js';

const chain = (...c: object[]) => c.map((x, i) => parseStageConfig(x, `stage ${i}`));
const at = (f: DatagramFate): number => {
  assert.ok('atMs' in f, `dropped: ${JSON.stringify(f)}`);
  return f.atMs;
};

describe('the emulated link for datagrams', () => {
  it('serializes each datagram with its 42 header bytes at the rate, and drops the tail when the queue is full', () => {
    // 8 Mbit/s = 1,000 wire bytes per ms; 958-byte datagrams are 1,000-byte frames; a queue of 10 frames.
    const link = new DatagramLink(chain({ type: 'rate', rateBitsPerSec: 8e6, queueBytes: 10_000 }), new Map());
    const fates = Array.from({ length: 12 }, () => link.admit(958, 0, 0));
    assert.deepEqual(fates.slice(0, 10).map(at), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(fates.slice(10), [{ drop: 'queue' }, { drop: 'queue' }], 'the 11th finds 10,000 bytes waiting');
    // 3 ms later three frames have left: room for three more.
    assert.equal(at(link.admit(958, 3, 0)), 11);
  });

  it('a payload-only rate (wireOverheadBytes 0) counts the datagram alone', () => {
    const link = new DatagramLink(chain({ type: 'rate', rateBitsPerSec: 8e6, wireOverheadBytes: 0 }), new Map());
    assert.equal(at(link.admit(1000, 0, 0)), 1);
  });

  it('periodic loss drops exactly every round(1 / ratio)-th datagram; random loss about the ratio', () => {
    const periodic = new DatagramLink(chain({ type: 'loss', lossRatio: 0.1, pattern: 'periodic' }), new Map());
    const dropped = Array.from({ length: 100 }, (_, i) => i).filter((i) => 'drop' in periodic.admit(100, i, 0));
    assert.deepEqual(dropped, [9, 19, 29, 39, 49, 59, 69, 79, 89, 99]);
    const random = new DatagramLink(chain({ type: 'loss', lossRatio: 0.1, seed: 7 }), new Map());
    const lost = Array.from({ length: 10_000 }, (_, i) => random.admit(100, i, 0)).filter((f) => 'drop' in f).length;
    // Binomial(10,000, 0.1): σ = 30; ±5σ.
    assert.ok(Math.abs(lost - 1000) < 150, `${lost}`);
  });

  it('delay with jitter never reorders, and the delay line drops what the emulator may not hold', () => {
    const link = new DatagramLink(chain({ type: 'delay', delayMs: 50, jitterMs: 20, seed: 3, queueBytes: 5000 }), new Map());
    let last = -Infinity;
    for (let t = 0; t < 100; t++) {
      const a = at(link.admit(100, t, 0));
      assert.ok(a >= t + 30 && a >= last, `${a} after ${last}`);
      last = a;
    }
    assert.deepEqual(link.admit(1000, 100, 4500), { drop: 'held' });
  });

  it('shares the wire with the other connections of the direction (one link, one clock)', () => {
    const shared = new Map<string, unknown>();
    const a = new DatagramLink(chain({ type: 'rate', rateBitsPerSec: 8e6 }), shared);
    const b = new DatagramLink(chain({ type: 'rate', rateBitsPerSec: 8e6 }), shared);
    assert.equal(at(a.admit(958, 0, 0)), 1);
    assert.equal(at(b.admit(958, 0, 0)), 2, 'the second stream waits for the first on the same wire');
  });
});
