/**
 * Longhaul's own streams through the kernel WAN harness (4 Mbit/s, 200 ms RTT),
 * checked against the model ceiling min(rate, window / RTT). The receiver's
 * view is what counts: it can never exceed what the link carries.
 * Needs root; skips with the reason otherwise.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { modelCeilingBitsPerSec, modelRttSeconds } from './link-config.js';
import { longhaulAtoB } from './longhaul-probe.js';
import { wanSkipReason } from './preflight.js';
import { createWanLink, type WanLink } from './wan-link.js';

const skip = (await wanSkipReason()) ?? false;
const RATE = 4_000_000;

function kbit(bitsPerSec: number | null): string {
  return bitsPerSec === null ? 'unknown' : `${(bitsPerSec / 1e3).toFixed(1)} kbit/s`;
}

describe('longhaul run through a 4 Mbit/s, 200 ms RTT kernel link', { skip, timeout: 120_000 }, () => {
  let link: WanLink | undefined;
  before(async () => {
    link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: 100 });
  });
  after(async () => {
    await link?.destroy();
  });

  it('with autotuning: close to the rate, never above it, every byte delivered', async (t) => {
    const r = await longhaulAtoB(link!, { seconds: 4 });
    const ceiling = modelCeilingBitsPerSec(RATE, null, modelRttSeconds(link!.config));
    const got = r.total.bitsPerSecond;
    t.diagnostic(`${kbit(got)} over ${r.total.seconds?.toFixed(2)} s vs model ceiling ${kbit(ceiling)} (ratio ${((got ?? 0) / ceiling).toFixed(3)})`);
    assert.equal(r.partial, false, `run complete: ${r.partialReason ?? ''} ${JSON.stringify(r.errors)}`);
    assert.equal(r.params.windowBytes, null);
    assert.ok(r.total.bytes > 0 && r.total.bytes === r.total.sentBytes, `received ${r.total.bytes} of ${r.total.sentBytes} bytes sent`);
    assert.ok(got !== null, 'a rate was measured');
    assert.ok(got <= ceiling * 1.03, `the receiver cannot read faster than the link carries: ${kbit(got)} > ${kbit(ceiling)}`);
    // The ramp (slow start, ~1 s here) is part of the average, hence the wide margin.
    assert.ok(got >= ceiling * 0.75, `${kbit(got)} is far below the ${kbit(ceiling)} ceiling`);
  });

  it('with --window 16K: window / RTT when the window is applied, and the result says whether it was', async (t) => {
    const windowBytes = 16 * 1024;
    const r = await longhaulAtoB(link!, { seconds: 4, flags: ['--window', '16K'] });
    const ceiling = modelCeilingBitsPerSec(RATE, windowBytes, modelRttSeconds(link!.config));
    const got = r.total.bitsPerSecond ?? 0;
    t.diagnostic(`window applied: ${r.window.applied} (${r.window.note}); ${kbit(got)} vs window/RTT ${kbit(ceiling)}`);
    assert.equal(r.window.requestedBytes, windowBytes);
    if (r.window.applied) {
      assert.ok(Math.abs(got / ceiling - 1) <= 0.15, `${kbit(got)} vs window/RTT ${kbit(ceiling)}`);
    } else {
      // Not applied must mean not applied: autotuning then runs well past a 16K window's ceiling.
      assert.match(r.window.note, /not applied/);
      assert.ok(got > 2 * ceiling, `the result says the window was not applied, yet ${kbit(got)} looks window-limited (${kbit(ceiling)})`);
    }
  });
});
