import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatBdpReport } from '../../electron/report/bdp-report.js';
import { bitMetresPerSec, formatBitMetres } from '../../electron/report/path-metrics.js';
import { bdpBytes, windowCeilingBitsPerSec, windowScaleShift } from '../../electron/contract/path-math.js';
import { parseDuration, parseRate, parseSize } from '../../electron/util/units.js';

describe('path metrics', { timeout: 10_000 }, () => {
  it("BDP of 1.3 s x 4 Mbit/s is 650,000 bytes (the seed's DefaultRcvWindow)", () => {
    assert.ok(Math.abs(bdpBytes(parseRate('4mbit'), parseDuration('1.3s')) - 650_000) < 1e-6);
    assert.match(formatBdpReport({ rttSeconds: 1.3, rateBitsPerSec: 4e6 }), /^Bandwidth-delay product: 650,000 bytes /);
  });

  it('an 8760-byte window over 1.3 s allows 53.9 kbit/s', () => {
    const bps = windowCeilingBitsPerSec(parseSize('8760'), 1.3);
    assert.equal(bps.toFixed(1), '53907.7');
    assert.match(formatBdpReport({ rttSeconds: 1.3, windowBytes: 8760 }), /^Window ceiling: 53\.9 kbit\/s per stream/);
  });

  it('window scaling: 65,535 needs none, 650,000 needs shift 4', () => {
    assert.equal(windowScaleShift(65_535), 0);
    assert.equal(windowScaleShift(65_536), 1);
    assert.equal(windowScaleShift(650_000), 4);
  });

  it('Land Speed Record metric: 957.369 Mbit/s x 5,626 km = 5.39e15 bit·m/s', () => {
    const v = bitMetresPerSec(957.369e6, 5626);
    assert.equal(formatBitMetres(v), '5.39e15 bit·m/s (5.4 peta-bit-metres/s)');
  });
});
