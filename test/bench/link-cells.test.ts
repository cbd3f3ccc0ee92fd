import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bdpBytes, modelCeiling, type LinkCell } from './link-matrix.js';
import { measureProxyPath } from './proxy-path.js';

/** The CI subset of `npm run bench:link` (proxy half), short runs, generous tolerances. */
describe('bench:link cells (proxy path)', () => {
  const cells: LinkCell[] = [
    { rateBitsPerSec: 4e6, rttMs: 100, windowBytes: 8760, windowLabel: '8760 B', lossRatio: 0, seconds: 3 },
    { rateBitsPerSec: 4e6, rttMs: 100, windowBytes: bdpBytes(4e6, 100) * 2, windowLabel: '2 BDP', lossRatio: 0, seconds: 3 },
  ];
  for (const cell of cells) {
    it(`${cell.rateBitsPerSec / 1e6} Mbit/s, ${cell.rttMs} ms, window ${cell.windowLabel}: steady state within 10 % of min(rate, window/RTT)`, { timeout: 15_000 }, async () => {
      const m = await measureProxyPath(cell);
      const model = modelCeiling(cell);
      const r = m.steadyBitsPerSec! / model;
      assert.ok(r > 0.9 && r < 1.1, `steady ${(m.steadyBitsPerSec! / 1e6).toFixed(3)} Mbit/s, model ${(model / 1e6).toFixed(3)} (ratio ${r.toFixed(3)})`);
      assert.ok(m.wholeRunBitsPerSec! <= m.steadyBitsPerSec! * 1.05, 'the whole run includes the ramp');
    });
  }
});
