/** A retransmit count in words: counted, estimated from bytes (Windows), or unknown — never a made-up 0. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { retransParts, retransText } from '../../electron/contract/retrans-text.js';

describe('retransmit text', () => {
  it('a counted figure is a plain number, with or without its unit', () => {
    assert.equal(retransText({ segments: 1234, source: 'counted' }), '1,234 segments');
    assert.equal(retransText({ segments: 0 }, ''), '0');
  });

  it('an estimate (Windows: BytesRetrans ÷ MSS) is marked ≈ and names the bytes it comes from', () => {
    assert.equal(retransText({ segments: 12, source: 'estimated', bytesRetrans: 17_376 }), '≈12 segments (estimated from 17,376 B retransmitted)');
    assert.equal(retransText({ segments: 12, source: 'estimated' }, ''), '≈12 (estimated from bytes retransmitted)');
    assert.deepEqual(retransParts({ segments: 12, source: 'estimated', bytesRetrans: null }), {
      figure: '≈12 segments',
      estimatedFrom: 'estimated from bytes retransmitted',
    });
  });

  it('no count at all is unknown, whatever the label says', () => {
    assert.equal(retransText({ segments: null, source: 'estimated', bytesRetrans: 0 }), 'unknown');
    assert.equal(retransText({ segments: NaN }), 'unknown');
    assert.deepEqual(retransParts({ segments: null }), { figure: 'unknown', estimatedFrom: null });
  });
});
