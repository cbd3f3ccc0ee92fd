/**
 * iperf3's UDP both ways through the kernel WAN harness with a loss the test built: 20 Mbit/s, 20 ms
 * each way, every 100th packet of each direction dropped (iptables statistic nth: the same 1 % every
 * run, where random loss would scatter ±0.15 points over these ~5,000 datagrams). Four runs, each end
 * the real program in its own namespace: `longhaul run --iperf3 -u` against `iperf3 -s`, and
 * `iperf3 -c -u` against `longhaul listen --iperf3`, forward and -R. Whoever receives counts; both
 * must read the built 1 % (±0.3 points: the control connection's few packets share the direction's
 * counter, so a drop now and then falls on one of them instead, under 0.1 point here) and agree with
 * each other exactly, but for the tail after the last arrival that only Longhaul counts (helpers/udp-loss-law).
 * Needs root and iperf3; skips with the reason otherwise.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { lossShare } from '../../electron/contract/udp.js';
import { assertUdpLossLaw } from '../helpers/udp-loss-law.js';
import { iperf3ToLonghaul, longhaulToIperf3, type Iperf3UdpSum } from './iperf3-interop-probe.js';
import { wanSkipReason } from './preflight.js';
import { createWanLink, type WanLink } from './wan-link.js';

const skip = (await wanSkipReason(['iperf3', 'ss'])) ?? false;
const SECONDS = 5;
const LOSS_PERCENT = 1;
const FLAGS = ['-u', '-b', '10M', '-l', '1200'];

/** The one direction's UDP totals of a forward or -R run, as loss in percent and jitter. */
function udpOf(r: LonghaulResult): { percent: number; datagrams: number; lost: number; jitterMs: number | null } {
  const u = r.total.udp;
  assert.ok(u, `the result has UDP totals: ${JSON.stringify(r.total)}`);
  return { percent: (lossShare(u) ?? 0) * 100, datagrams: u.datagrams, lost: u.lost, jitterMs: u.jitterMs };
}

/** `counter`: who counted the datagrams, Longhaul (it received) or iperf3 (Longhaul sent); see helpers/udp-loss-law. */
function check(t: { diagnostic(s: string): void }, label: string, r: LonghaulResult, theirs: Iperf3UdpSum | null, counter: 'longhaul' | 'iperf3'): void {
  assert.equal(r.partial, false, `${label}: complete: ${r.partialReason} ${JSON.stringify(r.errors)}`);
  assert.equal(r.params.protocol, 'udp');
  const mine = udpOf(r);
  t.diagnostic(
    `${label}: Longhaul ${mine.lost}/${mine.datagrams + mine.lost} lost (${mine.percent.toFixed(3)} %), jitter ${mine.jitterMs?.toFixed(3)} ms; ` +
      `iperf3 ${theirs ? `${theirs.lost_packets}/${theirs.packets} (${theirs.lost_percent.toFixed(3)} %), jitter ${theirs.jitter_ms.toFixed(3)} ms` : 'no receiver figures'}`,
  );
  assert.ok(mine.datagrams > 0.8 * ((10e6 / 8 / 1200) * SECONDS), `${label}: about the asked 10 Mbit/s arrived (${mine.datagrams} datagrams)`);
  assert.ok(Math.abs(mine.percent - LOSS_PERCENT) <= 0.3, `${label}: the built 1 % loss, ±0.3 points (${mine.percent.toFixed(3)} %)`);
  assert.ok(mine.jitterMs !== null, `${label}: a jitter`);
  if (theirs && theirs.packets > 0) {
    const lastSeq = r.streams.reduce((a, st) => a + (st.udp?.lastSeq ?? NaN), 0);
    assertUdpLossLaw(label, { datagrams: mine.datagrams, lost: mine.lost, lastSeq }, theirs, counter);
    assert.ok(Math.abs(mine.jitterMs / theirs.jitter_ms - 1) <= 0.1, `${label}: iperf3's jitter within 10 % (${theirs.jitter_ms} ms)`);
  }
}

describe("iperf3's UDP both ways through a 20 Mbit/s, 20 ms each way kernel link dropping every 100th packet", { skip, timeout: 150_000 }, () => {
  let link: WanLink | undefined;
  before(async () => {
    link = await createWanLink({ rateBitsPerSec: 20_000_000, oneWayDelayMs: 20, lossPercent: LOSS_PERCENT, lossPattern: 'periodic' });
  });
  after(async () => {
    await link?.destroy();
  });

  for (const reverse of [false, true]) {
    const R = reverse ? ['-R'] : [];
    const tag = reverse ? ' -R' : '';
    it(`longhaul run --iperf3 -u${tag} → iperf3 -s: the counting end reads the built loss, and both tools agree`, { timeout: 40_000 }, async (t) => {
      const r = await longhaulToIperf3(link!, SECONDS, '256K', [...FLAGS, ...R]);
      // iperf3 -s 3.12 keeps its own receiver's figures (forward); with -R its receiver line is empty (Longhaul counted).
      check(t, `longhaul client${tag}`, r.longhaul, reverse ? null : r.iperf3Udp, 'iperf3');
    });

    it(`iperf3 -c -u${tag} → longhaul listen --iperf3: the counting end reads the built loss, and both tools agree`, { timeout: 40_000 }, async (t) => {
      const r = await iperf3ToLonghaul(link!, SECONDS, '256K', [...FLAGS, ...R]);
      // iperf3 -c prints a receiver line either way: Longhaul's figures (forward) or its own count (-R).
      check(t, `longhaul server${tag}`, r.longhaul, r.iperf3Udp, reverse ? 'iperf3' : 'longhaul');
    });
  }
});
