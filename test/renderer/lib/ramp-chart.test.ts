/** The Ramp screen's chart data (renderer/src/lib/ramp-chart.ts): sorted by the rate asked, all streams, unknowns left out. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UdpRampStep } from '../../../electron/contract/udp-ramp.js';
import { rampChart } from '../../../renderer/src/lib/ramp-chart.js';

const step = (asked: number, received: number | null, loss: number | null, outcome: UdpRampStep['outcome']): UdpRampStep => ({
  askedBitsPerSec: asked,
  receivedBitsPerSec: received,
  lossShare: loss,
  jitterMs: null,
  senderShortShare: null,
  outcome,
  resultId: String(asked),
});

describe('ramp chart', () => {
  it('puts each step at the rate asked of all streams, sorted, with the loss in percent; an unknown figure is no point', () => {
    const c = rampChart([step(4e6, 8e6, 0, 'carried'), step(16e6, 15.6e6, 0.42, 'dropped'), step(8e6, null, null, 'failed')], 2);
    assert.deepEqual(
      c.arrived.map((p) => [p.x, p.y, p.outcome]),
      [
        [8e6, 8e6, 'carried'],
        [32e6, 15.6e6, 'dropped'],
      ],
    );
    assert.deepEqual(
      c.lossPercent.map((p) => [p.x, p.y]),
      [
        [8e6, 0],
        [32e6, 42],
      ],
    );
    assert.deepEqual(c.asked, [
      { x: 8e6, y: 8e6 },
      { x: 32e6, y: 32e6 },
    ]);
    assert.deepEqual(rampChart([], 1), { arrived: [], lossPercent: [], asked: [] });
  });
});
