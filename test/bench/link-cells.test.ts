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
    it(
      `${cell.rateBitsPerSec / 1e6} Mbit/s, ${cell.rttMs} ms, window ${cell.windowLabel}: steady state within 10 % of min(rate, window/RTT)`,
      { timeout: 15_000 },
      async () => {
        const m = await measureProxyPath(cell);
        const model = modelCeiling(cell);
        const r = m.steadyBitsPerSec! / model;
        assert.ok(r > 0.9 && r < 1.1, `steady ${(m.steadyBitsPerSec! / 1e6).toFixed(3)} Mbit/s, model ${(model / 1e6).toFixed(3)} (ratio ${r.toFixed(3)})`);
        assert.ok(m.wholeRunBitsPerSec! <= m.steadyBitsPerSec! * 1.05, 'the whole run includes the ramp');
      },
    );
  }
});

/**
 * The loss model against Reno's textbook rate with SACK, MSS / RTT × √(3 / (2p)) (Mathis et al.):
 * 1448 B / 100 ms × √150 ≈ 1.42 Mbit/s at 1 %, which the kernel harness with Reno also measured
 * (1.27-1.42 Mbit/s steady, 4 Mbit/s, 100 ms, 64 KiB or BDP). Mathis derived it for periodic loss,
 * one segment in 1/p, and the cell loses exactly that (the `periodic` pattern, as bench:link and
 * the kernel harness's `iptables --mode nth` do). It drew random losses until a fresh-clone CI run
 * read 1.596: the 6 s measured take about 7 losses, and a Poisson draw of 3 or fewer (≈ 8 % of
 * runs) leaves the window growing for seconds. The model this replaced (a one-RTT stall of link
 * and window per loss) measured 0.78-0.85 Mbit/s here. The random draw's ratio is checked on its
 * own, without timing, in test/proxy/stages/loss.test.ts. Periodic, the cell read 0.856-0.858 in
 * eight runs, four of them with another program keeping a core busy. The band: the model's round
 * trip of fast recovery per loss costs ≈ 7 % against Mathis's sawtooth (docs/proxy.md), and the
 * 6 s measured hold 6-7 of the run's 13 sawteeth, so where they fall moves the figure by up to
 * one tooth in seven (±15 %).
 */
describe('bench:link loss cell (proxy path)', () => {
  it("4 Mbit/s, 100 ms, 64 KiB, 1 % periodic loss: steady state within 0.75-1.15 × Reno's rate with SACK", { timeout: 30_000 }, async () => {
    const cell: LinkCell = {
      rateBitsPerSec: 4e6,
      rttMs: 100,
      windowBytes: 65_536,
      windowLabel: '64 KiB',
      lossRatio: 0.01,
      lossPattern: 'periodic',
      seconds: 12,
    };
    const m = await measureProxyPath(cell);
    const reno = ((1448 * 8) / 0.1) * Math.sqrt(3 / (2 * 0.01));
    const r = m.steadyBitsPerSec! / reno;
    assert.ok(r > 0.75 && r < 1.15, `steady ${(m.steadyBitsPerSec! / 1e6).toFixed(3)} Mbit/s, Reno ${(reno / 1e6).toFixed(3)} (ratio ${r.toFixed(3)})`);
  });
});
