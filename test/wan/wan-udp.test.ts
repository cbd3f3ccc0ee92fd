/**
 * UDP through the kernel WAN harness, a path whose rate is known because the test built it (tbf at
 * 20 Mbit/s each way, 20 ms one way): below the rate the asked rate arrives without loss and the
 * verdict says so; above it the receiver's rate is the tbf's payload rate (±5 %), the loss is what
 * the rate leaves (±5 points), and the verdict is the loss, in both directions (the mirror: -R).
 * Needs root; skips with the reason otherwise.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { lossShare } from '../../electron/contract/udp.js';
import { longhaulAtoB } from './longhaul-probe.js';
import { wanSkipReason } from './preflight.js';
import { createWanLink, type WanLink } from './wan-link.js';

const skip = (await wanSkipReason()) ?? false;
const RATE = 20_000_000;
/** tbf counts Ethernet frames: a 1,460-byte datagram is 1,460 + 8 (UDP) + 20 (IPv4) + 14 (Ethernet) = 1,502 bytes on it. */
const UDP_PAYLOAD_FRACTION = 1460 / 1502;
const CARRIED = RATE * UDP_PAYLOAD_FRACTION;

function mbit(bps: number | null | undefined): string {
  return bps == null ? 'unknown' : `${(bps / 1e6).toFixed(2)} Mbit/s`;
}

/** The one direction's total and finding of a forward or -R run. */
function only(r: LonghaulResult): { total: NonNullable<LonghaulResult['total']>; case: string | undefined } {
  const d = r.diagnosis?.[0];
  assert.equal(r.diagnosis?.length, 1);
  const total = r.directions[d!.direction];
  assert.ok(total, 'the direction has a total');
  return { total, case: d?.case };
}

describe('UDP through a 20 Mbit/s, 40 ms RTT kernel link', { skip, timeout: 180_000 }, () => {
  let link: WanLink | undefined;
  before(async () => {
    link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: 20 });
  });
  after(async () => {
    await link?.destroy();
  });

  it('-u -b 10M, half the rate: it all arrives at 10 Mbit/s, the verdict says the asked rate arrived', async (t) => {
    const r = await longhaulAtoB(link!, { seconds: 3, flags: ['-u', '-b', '10M'] });
    const { total, case: c } = only(r);
    t.diagnostic(`${mbit(total.bitsPerSecond)}, udp ${JSON.stringify(total.udp)}, ${c}`);
    assert.equal(r.partial, false, `${r.partialReason ?? ''} ${JSON.stringify(r.errors)}`);
    assert.ok(total.udp && lossShare(total.udp)! <= 0.01, `loss ${JSON.stringify(total.udp)}`);
    assert.ok(Math.abs((total.bitsPerSecond ?? 0) / 10e6 - 1) <= 0.05, `${mbit(total.bitsPerSecond)} for 10 Mbit/s asked`);
    assert.ok(c === 'application-limited/udp-carried' || c === 'cpu-limited/udp-sender-short', `${c}`);
  });

  for (const flags of [[], ['-R']]) {
    it(`-u -b 40M${flags.map((f) => ` ${f}`).join('')}, twice the rate: the receiver gets the link's payload rate (±5 %), loss is what the rate leaves, the verdict the loss`, async (t) => {
      const r = await longhaulAtoB(link!, { seconds: 3, flags: ['-u', '-b', '40M', ...flags] });
      const { total, case: c } = only(r);
      const loss = total.udp ? lossShare(total.udp) : null;
      // What the senders put out (sent + written off by a late pacer is the schedule; loss counts the numbers sent).
      const expectedLoss = 1 - CARRIED / ((total.sentBytes * 8) / (r.params.seconds ?? 3));
      t.diagnostic(`${mbit(total.bitsPerSecond)} arrived of ${mbit(CARRIED)} payload capacity; loss ${loss} (from the rates ${expectedLoss.toFixed(3)}); ${c}`);
      assert.equal(r.partial, false, `${r.partialReason ?? ''} ${JSON.stringify(r.errors)}`);
      assert.ok(Math.abs((total.bitsPerSecond ?? 0) / CARRIED - 1) <= 0.05, `${mbit(total.bitsPerSecond)} vs ${mbit(CARRIED)}`);
      assert.ok(loss !== null && Math.abs(loss - expectedLoss) <= 0.05, `loss ${loss} vs ${expectedLoss.toFixed(3)}`);
      assert.equal(c, 'loss-limited/udp-dropped');
    });
  }
});

/**
 * Random loss the test built (iptables statistic, 1 % of the packets each way, at random): what the
 * receiver counts is a binomial draw of the datagrams sent. At -b 10M of 200-byte datagrams for 4 s
 * (25,000 datagrams, 12 Mbit/s on the 20 Mbit/s wire: no queue loss) its standard deviation is
 * √(0.01 × 0.99 / 25,000) = 0.063 points, so 1 % ± 0.3 holds at 4.8 σ; both directions (-R: the mirror).
 */
describe('UDP through a 20 Mbit/s, 40 ms RTT kernel link dropping 1 % of packets at random', { skip, timeout: 120_000 }, () => {
  let link: WanLink | undefined;
  before(async () => {
    link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: 20, lossPercent: 1, lossPattern: 'random' });
  });
  after(async () => {
    await link?.destroy();
  });

  for (const flags of [[], ['-R']]) {
    it(`-u -b 10M -l 200${flags.map((f) => ` ${f}`).join('')}: the loss reads the built 1 % ± 0.3 points, and the verdict puts it on the path`, async (t) => {
      const r = await longhaulAtoB(link!, { seconds: 4, flags: ['-u', '-b', '10M', '-l', '200', ...flags] });
      const { total, case: c } = only(r);
      const u = total.udp;
      assert.ok(u, 'UDP totals');
      const percent = (lossShare(u) ?? 0) * 100;
      t.diagnostic(`${u.lost} of ${u.datagrams + u.lost} lost (${percent.toFixed(3)} %), ${mbit(total.bitsPerSecond)}, ${c}`);
      assert.equal(r.partial, false, `${r.partialReason ?? ''} ${JSON.stringify(r.errors)}`);
      assert.ok(u.datagrams + u.lost > 20_000, `${u.datagrams + u.lost} datagrams numbered: the bound assumes about 25,000`);
      assert.ok(Math.abs(percent - 1) <= 0.3, `${percent.toFixed(3)} % lost of the built 1 %`);
      // 1 % is the verdict's threshold: a draw just above it is the path's loss, just below it the asked rate arrived (a busy sender says so).
      assert.ok(['loss-limited/udp-dropped', 'application-limited/udp-carried', 'cpu-limited/udp-sender-short'].includes(c ?? ''), `${c}`);
    });
  }
});
