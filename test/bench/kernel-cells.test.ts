/**
 * The CI subset of `npm run bench:link`, kernel half: one cell through the
 * WAN harness and the proxy at the same time, generous tolerances. Plus the
 * time-base arithmetic of the kernel half on a synthetic result (no root needed).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelCeilingBitsPerSec } from '../wan/link-config.js';
import { wanSkipReason } from '../wan/preflight.js';
import { cellRates, measureKernelPath, receivedUpTo } from './kernel-path.js';
import type { ReceivedInterval } from './kernel-run.js';
import type { LinkCell } from './link-matrix.js';
import { measureProxyPath } from './proxy-path.js';

function resultWith(perInterval: number[], intervalSeconds: number): ReceivedInterval[] {
  return perInterval.map((receivedBytes, k) => ({ t: (k + 1) * intervalSeconds, seconds: intervalSeconds, receivedBytes }));
}

describe("kernel path: rates on the sender's time base", () => {
  it('reads cumulative received bytes at any time, linear within an interval', () => {
    const r = resultWith([100, 200, 300], 0.5);
    assert.equal(receivedUpTo(r, 0), 0);
    assert.equal(receivedUpTo(r, 0.5), 100);
    assert.equal(receivedUpTo(r, 0.75), 200);
    assert.equal(receivedUpTo(r, 1.5), 600);
    assert.equal(receivedUpTo(r, 9), 600, 'nothing after the last interval');
  });

  it("shifts by the one-way delay: the receiver's clock starts when the start message arrives", () => {
    // 1,000 B per 0.5 s on the receiver clock; the sender started 0.25 s before that clock.
    const r = resultWith(
      Array.from({ length: 8 }, () => 1000),
      0.5,
    );
    const m = cellRates(r, 4, 0.25);
    assert.equal(m.wholeRunBitsPerSec, (7500 * 8) / 4, 'receiver time 3.75 s = sender time 4 s');
    assert.equal(m.steadyBitsPerSec, (4000 * 8) / 2);
  });

  it('says nothing when a receiver sample is missing', () => {
    const r = resultWith([100, 200], 0.5);
    r[0]!.receivedBytes = null;
    assert.deepEqual(cellRates(r, 1, 0), { steadyBitsPerSec: null, wholeRunBitsPerSec: null });
  });

  it("says nothing when the intervals stop before the run's end (a run that failed early)", () => {
    assert.deepEqual(cellRates(resultWith([100, 200], 0.5), 4, 0.05), { steadyBitsPerSec: null, wholeRunBitsPerSec: null });
  });
});

const skip = (await wanSkipReason()) ?? false;

describe('bench:link cell, kernel vs proxy (4 Mbit/s, RTT 100 ms, window 64 KiB)', { skip, timeout: 90_000 }, () => {
  it('the kernel reaches its model in steady state; the proxy is within 30 % of the kernel over the whole run', { timeout: 80_000 }, async (t) => {
    const cell: LinkCell = { rateBitsPerSec: 4e6, rttMs: 100, windowBytes: 65_536, windowLabel: '64 KiB', lossRatio: 0, seconds: 4 };
    // One after the other: the proxy's timers run in this process and lose 15-20 % to a concurrent longhaul start-up.
    const kernel = await measureKernelPath(cell);
    const proxy = await measureProxyPath(cell);
    const kernelModel = modelCeilingBitsPerSec(cell.rateBitsPerSec, cell.windowBytes, cell.rttMs / 1000);
    const mbit = (v: number | null): string => (v === null ? 'unknown' : `${(v / 1e6).toFixed(3)} Mbit/s`);
    t.diagnostic(
      `kernel steady ${mbit(kernel.steadyBitsPerSec)} (model ${mbit(kernelModel)}), whole ${mbit(kernel.wholeRunBitsPerSec)}; ` +
        `proxy steady ${mbit(proxy.steadyBitsPerSec)}, whole ${mbit(proxy.wholeRunBitsPerSec)}; ${kernel.note ?? ''}`,
    );
    const k = kernel.steadyBitsPerSec!;
    assert.ok(Math.abs(k / kernelModel - 1) <= 0.1, `kernel steady ${mbit(k)} vs ${mbit(kernelModel)}`);
    const ratio = proxy.wholeRunBitsPerSec! / kernel.wholeRunBitsPerSec!;
    assert.ok(ratio >= 0.7 && ratio <= 1.3, `proxy / kernel over the whole run ${ratio.toFixed(3)}`);
  });
});

describe('bench:link loss cell, kernel Reno vs proxy, the same periodic 1 % (4 Mbit/s, RTT 100 ms, window 64 KiB)', { skip, timeout: 90_000 }, () => {
  it('the proxy is within 20 % of the kernel over the whole run', { timeout: 80_000 }, async (t) => {
    // Every 100th segment lost on both paths (iptables --mode nth; the proxy's periodic pattern):
    // no sampling noise, so a short run compares the loss model with kernel Reno. Measured over
    // 30 s: 1.02-1.03. Drawing a loss per chunk instead of per segment gave 0.73 of Reno's rate;
    // halving at the loss's departure instead of its detection 1.18.
    const cell: LinkCell = {
      rateBitsPerSec: 4e6,
      rttMs: 100,
      windowBytes: 65_536,
      windowLabel: '64 KiB',
      lossRatio: 0.01,
      lossPattern: 'periodic',
      seconds: 15,
    };
    const kernel = await measureKernelPath(cell, { congestionControl: 'reno' });
    const proxy = await measureProxyPath(cell);
    const mbit = (v: number | null): string => (v === null ? 'unknown' : `${(v / 1e6).toFixed(3)} Mbit/s`);
    t.diagnostic(`kernel whole ${mbit(kernel.wholeRunBitsPerSec)}, proxy whole ${mbit(proxy.wholeRunBitsPerSec)}; ${kernel.note ?? ''}`);
    const ratio = proxy.wholeRunBitsPerSec! / kernel.wholeRunBitsPerSec!;
    assert.ok(ratio >= 0.8 && ratio <= 1.2, `proxy / kernel over the whole run ${ratio.toFixed(3)}`);
  });
});
