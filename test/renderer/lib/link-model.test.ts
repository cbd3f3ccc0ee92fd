/** The Link screen's model: BDP = rate × RTT, ceiling = min(rate × payload share, streams × window / RTT). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linkModel } from '../../../renderer/src/lib/link-model.js';

describe('link model', () => {
  it('shows the seed mistake: a 64 KiB window on a 4 Mbit/s, 1.3 s satellite hop', () => {
    const m = linkModel({ rateBitsPerSec: 4e6, rttMs: 1300, windowBytes: 65_536, streams: 1 });
    assert.equal(m.bdpBytes, 650_000);
    assert.ok(Math.abs(m.windowLimitBitsPerSec! - 403_298.46) < 0.01);
    assert.equal(m.ceilingBitsPerSec, m.windowLimitBitsPerSec);
    assert.equal(m.limitedBy, 'window');
    assert.equal(m.windowTooSmall, true);
  });

  it('is rate-bound once the windows cover the BDP (20 MiB, or enough streams)', () => {
    const big = linkModel({ rateBitsPerSec: 4e6, rttMs: 1300, windowBytes: 20 * 1024 ** 2, streams: 1 });
    assert.ok(Math.abs(big.ceilingBitsPerSec! - (4e6 * 1448) / 1514) < 1e-6, 'the wire rate less 66 header bytes per 1448-byte segment: 3.83 Mbit/s');
    assert.equal(big.limitedBy, 'rate');
    assert.equal(big.windowTooSmall, false);
    const many = linkModel({ rateBitsPerSec: 4e6, rttMs: 1300, windowBytes: 65_536, streams: 10 });
    assert.equal(many.limitedBy, 'rate');
    assert.equal(many.windowTooSmall, false);
  });

  it('says unknown for the OS default window instead of guessing', () => {
    const m = linkModel({ rateBitsPerSec: 1e9, rttMs: 0.5, windowBytes: null, streams: 4 });
    assert.equal(m.ceilingBitsPerSec, null);
    assert.equal(m.limitedBy, 'unknown');
    assert.equal(m.bdpBytes, 62_500);
  });

  it('treats a zero RTT as rate-bound', () => {
    assert.equal(linkModel({ rateBitsPerSec: 1514e3, rttMs: 0, windowBytes: 1, streams: 1 }).ceilingBitsPerSec, 1448e3);
  });
});
