/**
 * Delay under load through the kernel WAN harness: a deep tbf queue (250 kB at
 * 10 Mbit/s ≈ 200 ms) must show its queueing in the result's `delay` within
 * ±20 % of what the queue holds at the link rate; a shallow one under 10 ms.
 * Shallow is 10 kB (with tbf's 3 kB bucket ≈ 10 ms at 10 Mbit/s): a 25 kB queue
 * holds 22 ms, and CUBIC keeps it most of the way full (15.5 ms measured), so
 * "under 10 ms" needs a queue that cannot hold more. CUBIC on both ends, as the
 * diagnosis scenarios set it. Needs root; skips with the reason otherwise.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { longhaulAtoB } from './longhaul-probe.js';
import { wanSkipReason } from './preflight.js';
import { createWanLink, type WanLink, type WanLinkOptions } from './wan-link.js';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { controlQueueingMs } from '../../electron/contract/delay-info.js';
import { tbfArgs } from './link-config.js';

const skip = (await wanSkipReason()) ?? false;
const MBIT = 1_000_000;

/** What the tbf queue holds at the link rate, ms: its limit (queue and bucket, wire bytes) ÷ the rate. */
function queueHoldsMs(rateBitsPerSec: number, queueBytes: number): number {
  const args = tbfArgs(rateBitsPerSec, queueBytes);
  const limitBytes = Number(args[args.indexOf('limit') + 1]);
  return ((limitBytes * 8) / rateBitsPerSec) * 1000;
}

/** One CUBIC run (`-C cubic`, per socket) through a fresh link, destroyed after, also on failure. */
async function cubicRun(opts: WanLinkOptions, seconds: number): Promise<LonghaulResult> {
  link = await createWanLink(opts);
  try {
    return await longhaulAtoB(link, { seconds, flags: ['-C', 'cubic'] });
  } finally {
    await link.destroy();
    link = undefined;
  }
}

let link: WanLink | undefined;

describe('delay under load through a tbf queue (kernel WAN harness)', { skip, timeout: 120_000 }, () => {
  after(async () => {
    await link?.destroy();
  });

  it('a deep queue (10 Mbit/s, 20 ms RTT, 250 kB): the queueing within ±20 % of what the queue holds', async (t) => {
    const r = await cubicRun({ rateBitsPerSec: 10 * MBIT, oneWayDelayMs: 10, queueBytes: 250_000 }, 8);
    const d = r.delay;
    const holds = queueHoldsMs(10 * MBIT, 250_000);
    t.diagnostic(`delay ${JSON.stringify(d)}; the queue holds ${holds.toFixed(0)} ms at the link rate`);
    assert.ok(d, 'the result carries delay figures');
    assert.equal(d.idleSource, 'tcp_info min_rtt');
    assert.equal(d.loadedSource, 'tcp_info smoothed rtt');
    assert.ok(d.idleRttMs !== null && d.idleRttMs >= 18 && d.idleRttMs < 40, `idle RTT ${d.idleRttMs} ms: the path's 20 ms`);
    assert.ok(d.queueingMs !== null, 'queueing measured');
    // CUBIC fills the queue, backs off to 0.7 of its window and fills it again: the typical queueing is
    // below a full queue (150-170 ms measured), the peak is the queue full.
    const peak = d.peakQueueingMs ?? null;
    assert.ok(peak !== null, 'peak queueing measured');
    assert.ok(Math.abs(peak / holds - 1) <= 0.2, `peak queueing ${peak.toFixed(1)} ms vs the ${holds.toFixed(0)} ms the queue holds`);
    // The typical (median) queueing depends on how CUBIC recovered in 8 s: 152-169 ms in most runs, 93 ms in one
    // fresh-clone CI run where slow start's overshoot cost more than one back-off. Below the peak, well above none.
    assert.ok(d.queueingMs >= 0.3 * holds && d.queueingMs <= peak, `typical queueing ${d.queueingMs.toFixed(1)} ms: between 0.3 of the queue and the peak`);
    // The control channel crosses the same queue: its own ping says the same, without TCP_INFO.
    const cq = controlQueueingMs(d);
    assert.ok(d.controlIdleRttMs != null && d.controlIdleRttMs >= 18 && d.controlIdleRttMs < 40, `control idle ${d.controlIdleRttMs} ms: the path's 20 ms`);
    assert.ok(cq !== null && cq >= 0.3 * holds && cq <= 1.2 * holds, `control-channel queueing ${cq} ms vs the ${holds.toFixed(0)} ms the queue holds`);
  });

  it('a shallow queue (10 Mbit/s, 40 ms RTT, 10 kB): under 10 ms of queueing', async (t) => {
    const r = await cubicRun({ rateBitsPerSec: 10 * MBIT, oneWayDelayMs: 20, queueBytes: 10_000 }, 8);
    const d = r.delay;
    t.diagnostic(`delay ${JSON.stringify(d)}`);
    assert.ok(d && d.queueingMs !== null, 'queueing measured');
    assert.ok(d.idleRttMs !== null && d.idleRttMs >= 38 && d.idleRttMs < 60, `idle RTT ${d.idleRttMs} ms: the path's 40 ms`);
    assert.ok(d.queueingMs < 10, `queueing ${d.queueingMs.toFixed(1)} ms through a 10 kB queue (holds ${queueHoldsMs(10 * MBIT, 10_000).toFixed(1)} ms)`);
    const cq = controlQueueingMs(d);
    assert.ok(cq !== null && cq < 10, `control-channel queueing ${cq} ms through a 10 kB queue`);
  });
});
