/** The cwnd axis's ticks: power-of-two steps, so binary labels come out round. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatBinaryBytes } from '../../../electron/contract/units.js';
import { binaryTickLabel, binaryStep, binaryTicks, binaryTop } from '../../../renderer/src/lib/binary-ticks.js';

describe('binary axis ticks', () => {
  it('a 416 KiB cwnd: steps of 128 KiB up to 512 KiB, every label round', () => {
    const max = 416 * 1024;
    assert.equal(binaryStep(max), 128 * 1024);
    assert.equal(binaryTop(max), 512 * 1024);
    assert.deepEqual(binaryTicks(max).map(formatBinaryBytes), ['0 B', '128.0 KiB', '256.0 KiB', '384.0 KiB', '512.0 KiB']);
  });

  it('at most five steps, whatever the scale', () => {
    for (const max of [1, 7, 1000, 65_536, 65_537, 3_000_000, 33_029_120, 2 ** 31]) {
      const ticks = binaryTicks(max);
      assert.ok(ticks.length >= 2 && ticks.length <= 6, `${max}: ${ticks.length} ticks`);
      assert.ok(ticks.at(-1)! >= max, `${max}: the top tick covers the data`);
      const step = ticks[1]! - ticks[0]!;
      assert.equal(Math.log2(step) % 1, 0, `${max}: step ${step} is a power of two`);
    }
  });

  it('no data yet: one step of 1 B, not NaN', () => {
    assert.deepEqual(binaryTicks(0), [0, 1]);
    assert.deepEqual(binaryTicks(Number.NaN), [0, 1]);
  });

  it('labels ticks short, with their unit: the narrow panel has little room for the side axis', () => {
    assert.deepEqual(binaryTicks(1000 * 1024).map(binaryTickLabel), ['0 B', '256 KiB', '512 KiB', '768 KiB', '1 MiB']);
    assert.equal(binaryTickLabel(1.5 * 1024 ** 2), '1.5 MiB');
    assert.equal(binaryTickLabel(2 * 1024 ** 3), '2 GiB');
  });
});
