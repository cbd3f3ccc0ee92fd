/**
 * `--udp-ramp` through the kernel WAN harness, a path whose rate the test built: tbf at 20 Mbit/s of
 * frames each way, 20 ms one way. The ramp must find what the path carries: the tbf's UDP payload
 * rate (1,460-byte datagrams in 1,502-byte frames: 19.44 Mbit/s), within ±5 % of the 20 Mbit/s built,
 * in both directions (the mirror: -R). Steps of 2 s from -b 8M: the ramp doubles to 16M (carried) and
 * 32M (dropped), then narrows; each step's loss is exact enough at ~3,000 datagrams.
 * Needs root; skips with the reason otherwise.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { longhaulRampAtoB } from './longhaul-probe.js';
import { wanSkipReason } from './preflight.js';
import { createWanLink, type WanLink } from './wan-link.js';

const skip = (await wanSkipReason()) ?? false;
const RATE = 20_000_000;

describe('--udp-ramp through a 20 Mbit/s, 40 ms RTT kernel link', { skip, timeout: 400_000 }, () => {
  let link: WanLink | undefined;
  before(async () => {
    link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: 20 });
  });
  after(async () => {
    await link?.destroy();
  });

  for (const flags of [[], ['-R']]) {
    it(`--udp-ramp${flags.map((f) => ` ${f}`).join('')}: the rate carried is the link's 20 Mbit/s within 5 %`, { timeout: 180_000 }, async (t) => {
      const o = await longhaulRampAtoB(link!, { seconds: 2, flags: ['--udp-ramp', '-b', '8M', ...flags] });
      for (const s of o.steps) {
        t.diagnostic(
          `-b ${s.askedBitsPerSec / 1e6}M: ${((s.receivedBitsPerSec ?? 0) / 1e6).toFixed(2)} Mbit/s, loss ${((s.lossShare ?? 0) * 100).toFixed(2)} %, ${s.outcome}`,
        );
      }
      assert.equal(o.schema, 'longhaul.udp-ramp/1');
      assert.equal(o.end, 'found', `the ramp ended on an answer: ${o.end}`);
      assert.ok(o.carried && o.firstDropped, 'a carried and a dropped step');
      const carried = o.carried.receivedBitsPerSec ?? 0;
      assert.ok(Math.abs(carried / RATE - 1) <= 0.05, `carried ${(carried / 1e6).toFixed(2)} Mbit/s, within 5 % of the 20 Mbit/s built`);
      assert.ok(o.steps.length <= 12, `found in ${o.steps.length} steps`);
      assert.equal(o.results.length, o.steps.length, 'every step keeps its result');
    });
  }
});
