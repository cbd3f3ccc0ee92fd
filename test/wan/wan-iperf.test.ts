/**
 * Kernel TCP (iperf3) through the WAN harness, scaled down from the issue's
 * satellite link to 4 Mbit/s and 200 ms RTT so each run takes seconds:
 * - a small window caps a stream at window / RTT,
 * - a window of one bandwidth-delay product fills the link after the ramp,
 * - 1 % loss makes TCP retransmit.
 * Needs root and iperf3; skips with the reason otherwise.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { modelCeilingBitsPerSec, modelRttSeconds, TCP_PAYLOAD_FRACTION } from './link-config.js';
import { wanSkipReason } from './preflight.js';
import { iperfAtoB } from './probes.js';
import { createWanLink, type WanLink } from './wan-link.js';

const skip = (await wanSkipReason(['iperf3'])) ?? false;
const RATE = 4_000_000;
const DELAY_MS = 100;

function ratio(measured: number, model: number): string {
  return `${(measured / 1e3).toFixed(1)} kbit/s vs model ${(model / 1e3).toFixed(1)} kbit/s (ratio ${(measured / model).toFixed(3)})`;
}

describe('iperf3 through a 4 Mbit/s, 200 ms RTT kernel link', { skip, timeout: 90_000 }, () => {
  let link: WanLink | undefined;
  before(async () => {
    link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: DELAY_MS });
  });
  after(async () => {
    await link?.destroy();
  });

  it('an 8760-byte window gives window / RTT (±15 %), counting whole segments', async (t) => {
    const windowBytes = 8760;
    const model = modelCeilingBitsPerSec(RATE, windowBytes, modelRttSeconds(link!.config));
    assert.ok(model < RATE / 5, 'the window, not the rate, is the limit in this case');
    // The receiver advertises 8,688 B (6 × 1,448) or 8,664 B, varying from run to run; of the
    // latter the sender sends only 5 whole segments, 7,240 B per RTT (measured 289 kbit/s here,
    // README "Known"). iperf3 does not report snd_wnd, so both are allowed.
    const fiveSegments = modelCeilingBitsPerSec(RATE, 5 * 1448, modelRttSeconds(link!.config));
    const r = await iperfAtoB(link!, { seconds: 3, omitSeconds: 1, windowBytes });
    t.diagnostic(`${ratio(r.receivedBitsPerSec, model)}; vs 5 whole segments: ${ratio(r.receivedBitsPerSec, fiveSegments)}`);
    assert.ok(r.receivedBitsPerSec >= fiveSegments * 0.85 && r.receivedBitsPerSec <= model * 1.15, ratio(r.receivedBitsPerSec, model));
  });

  it('a window of one bandwidth-delay product holds the rate (±10 %) after the ramp', async (t) => {
    const bdpBytes = (RATE / 8) * modelRttSeconds(link!.config);
    const r = await iperfAtoB(link!, { seconds: 3, omitSeconds: 2, windowBytes: bdpBytes });
    const payloadCeiling = RATE * TCP_PAYLOAD_FRACTION;
    t.diagnostic(`vs the link rate: ${ratio(r.receivedBitsPerSec, RATE)}; vs its payload ceiling: ${ratio(r.receivedBitsPerSec, payloadCeiling)}`);
    assert.ok(Math.abs(r.receivedBitsPerSec / RATE - 1) <= 0.1, ratio(r.receivedBitsPerSec, RATE));
    // Above the rate would mean tbf is not shaping: no wire carries more than it is given.
    assert.ok(r.receivedBitsPerSec <= RATE * 1.02, `no more than the link rate: ${ratio(r.receivedBitsPerSec, RATE)}`);
  });

  it('window-limited runs lost no packet: neither the loss rule nor the queue dropped any', async () => {
    const c = await link!.counters();
    assert.deepEqual(c, { lossDrops: 0, queueDropsToB: 0, queueDropsToA: 0, delayQueueDrops: 0 });
  });
});

describe('iperf3 through the same link with 1 % loss', { skip, timeout: 60_000 }, () => {
  let link: WanLink | undefined;
  before(async () => {
    link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: DELAY_MS, lossPercent: 1 });
  });
  after(async () => {
    await link?.destroy();
  });

  it('drops packets and TCP retransmits them', async (t) => {
    const r = await iperfAtoB(link!, { seconds: 4 });
    const c = await link!.counters();
    t.diagnostic(
      `${r.retransmits} retransmits; dropped: ${c.lossDrops} by the loss rule (both directions), ${c.queueDropsToB} by the full queue toward B; ${(r.receivedBitsPerSec / 1e3).toFixed(0)} kbit/s`,
    );
    assert.ok(c.lossDrops > 0, 'the loss rule dropped packets');
    assert.ok(r.retransmits > 0, 'the sender retransmitted');
    assert.ok(r.receivedBitsPerSec < RATE, 'loss costs throughput');
  });
});
