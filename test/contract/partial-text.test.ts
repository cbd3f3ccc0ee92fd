import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { partialLabel, rateText, shownRate } from '../../electron/contract/partial-text.js';

describe('partial-text: a partial run rated over the seconds measured', () => {
  const partialRate = { seconds: 1.002, bitsPerSecond: 21.01e9, span: 'start-to-last-sample' as const };

  it('shows the partial rate, labelled, where the wall-clock one is unknown', () => {
    assert.equal(rateText({ bitsPerSecond: null, seconds: null, partialRate }), '21.01 Gbit/s (partial: over the 1.0 s measured)');
    assert.deepEqual(shownRate({ bitsPerSecond: null, seconds: null, partialRate }), { bitsPerSecond: 21.01e9, seconds: 1.002, partial: true });
  });

  it('a run stopped at once says its seconds to two digits; a complete run has no label', () => {
    assert.equal(partialLabel({ seconds: 0.0472, bitsPerSecond: 1, span: 'first-to-last-byte' }), 'partial: over the 0.047 s measured');
    assert.equal(rateText({ bitsPerSecond: 8e6, seconds: 2 }), '8.00 Mbit/s');
    assert.equal(rateText({ bitsPerSecond: null, seconds: null }), 'unknown');
    assert.deepEqual(shownRate({ bitsPerSecond: 8e6, seconds: 2 }), { bitsPerSecond: 8e6, seconds: 2, partial: false });
  });
});
