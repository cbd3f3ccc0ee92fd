/**
 * Longhaul and iperf3 at the two ends of the kernel WAN harness (20 Mbit/s, 40 ms each way),
 * both ways: Longhaul's own figure within 2 % of iperf3's, and every byte one end wrote
 * counted by the other.
 *
 * What is compared: the receiver's reads against the sender's writes, each counted by its
 * own program on its own clock, over seconds 2 to 12 of a 13 s test. The whole test would not
 * do: the sender writes until its time is up, and what its socket buffer then holds reaches
 * the receiver afterwards (iperf3 -c's whole-run figure counts that too, ~5 % here). Inside
 * the span the link is full (slow start at an 80 ms RTT is over well before second 2), and
 * a sender's writes follow the link's pace once its buffer is full. The window is 256 KiB on
 * both ends (above the 200 KB bandwidth-delay product, so the link stays the limit): with
 * autotuning the kernel grows the send buffer during the span and wakes the writer in bursts
 * of up to a megabyte (iperf3 3.12's seconds read 16.7, 25.0, 16.7 Mbit/s), which the span's
 * two edges would cut anywhere; with a fixed buffer a burst is at most a third of 512 KiB,
 * about 175 KB. That is 1.2 % of a 6-s span at this rate, and a run beside a busy CPU measured
 * 1.3 % over seconds 2–8; over 10 s an edge's burst is at most 0.7 % of the span.
 * The two clocks differ by about the one-way delay, which at a steady rate shifts as many
 * bytes into the span as out of it.
 * Needs root and iperf3; skips with the reason otherwise.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { IntervalResult, LonghaulResult } from '../../electron/contract/result.js';
import { iperf3ToLonghaul, longhaulToIperf3, type Iperf3Interval } from './iperf3-interop-probe.js';
import { TCP_PAYLOAD_FRACTION } from './link-config.js';
import { wanSkipReason } from './preflight.js';
import { createWanLink, type WanLink } from './wan-link.js';

const skip = (await wanSkipReason(['iperf3', 'ss'])) ?? false;
const RATE = 20_000_000;
const SECONDS = 13;
const FROM_S = 2;
const TO_S = 12;
const WINDOW = '256K';

interface Span {
  bytes: number;
  seconds: number;
  bitsPerSec: number;
}

function span(bytes: number, seconds: number): Span {
  return { bytes, seconds, bitsPerSec: (bytes * 8) / seconds };
}

/** iperf3's intervals that lie within [FROM_S, TO_S] on its clock (its intervals end on whole seconds, ± a few ms). */
function iperf3Span(intervals: Iperf3Interval[]): Span {
  const inside = intervals.filter((i) => i.start >= FROM_S - 0.05 && i.end <= TO_S + 0.05);
  assert.equal(inside.length, TO_S - FROM_S, `iperf3 reported ${TO_S - FROM_S} intervals in seconds ${FROM_S}–${TO_S}: ${JSON.stringify(intervals)}`);
  return span(
    inside.reduce((a, i) => a + i.bytes, 0),
    inside.at(-1)!.end - inside[0]!.start,
  );
}

/**
 * Longhaul's intervals FROM_S+1 … TO_S (interval i ends at i seconds) on its own end's clock:
 * its sent bytes when it is the client (sending), its received bytes when it serves.
 */
function longhaulSpan(r: LonghaulResult, end: 'controller' | 'responder'): Span {
  const at = (i: IntervalResult): number | null => (end === 'controller' ? i.controllerT : i.responderT);
  const byIndex = new Map(r.intervals.map((i) => [i.index, i]));
  const first = byIndex.get(FROM_S);
  const last = byIndex.get(TO_S);
  assert.ok(first && last && at(first) !== null && at(last) !== null, `Longhaul has samples at ${FROM_S} s and ${TO_S} s on the ${end}'s clock`);
  let bytes = 0;
  for (let i = FROM_S + 1; i <= TO_S; i++) {
    const iv = byIndex.get(i);
    const b = end === 'controller' ? iv?.sentBytes : iv?.receivedBytes;
    assert.ok(typeof b === 'number', `Longhaul's interval ${i} has the ${end}'s count`);
    bytes += b;
  }
  return span(bytes, at(last)! - at(first)!);
}

function mbit(bps: number | null): string {
  return bps === null ? 'unknown' : `${(bps / 1e6).toFixed(3)} Mbit/s`;
}

function agree(t: { diagnostic(s: string): void }, label: string, mine: Span, theirs: Span): void {
  const ratio = mine.bitsPerSec / theirs.bitsPerSec;
  t.diagnostic(
    `${label}, seconds ${FROM_S}–${TO_S}: Longhaul ${mbit(mine.bitsPerSec)} (${mine.bytes} B in ${mine.seconds.toFixed(3)} s), ` +
      `iperf3 ${mbit(theirs.bitsPerSec)} (${theirs.bytes} B in ${theirs.seconds.toFixed(3)} s), ratio ${ratio.toFixed(4)}`,
  );
  // The link really was the limit: a span below its rate would compare two idle ends, not two measurements of it.
  assert.ok(theirs.bitsPerSec >= RATE * TCP_PAYLOAD_FRACTION * 0.9, `iperf3's ${mbit(theirs.bitsPerSec)} fills the link`);
  assert.ok(Math.abs(ratio - 1) <= 0.02, `${label}: within 2 % (ratio ${ratio.toFixed(4)})`);
}

describe('Longhaul and iperf3 through a 20 Mbit/s, 40 ms each way kernel link', { skip, timeout: 150_000 }, () => {
  let link: WanLink | undefined;
  before(async () => {
    link = await createWanLink({ rateBitsPerSec: RATE, oneWayDelayMs: 40 });
  });
  after(async () => {
    await link?.destroy();
  });

  it("longhaul run --iperf3 → iperf3 -s: Longhaul's write rate within 2 % of iperf3's read rate; every byte counted", { timeout: 60_000 }, async (t) => {
    const r = await longhaulToIperf3(link!, SECONDS, WINDOW);
    const mine = r.longhaul;
    assert.equal(mine.partial, false, `complete: ${mine.partialReason} ${JSON.stringify(mine.errors)}`);
    assert.equal(mine.responder.software, `iperf3 ${r.iperf3Version.replace(/^iperf\s+/, '')}`);
    const d = mine.directions.controllerToResponder!;
    // TEST_END only once B's kernel acknowledged our last byte: iperf3 counted all we wrote.
    assert.equal(r.iperf3Bytes, d.sentBytes, 'iperf3 -s received every byte Longhaul wrote');
    t.diagnostic(`whole run: ${d.sentBytes} B; the result's figure (iperf3's count over its time) ${mbit(d.bitsPerSecond)}`);
    agree(t, 'Longhaul sending, iperf3 receiving', longhaulSpan(mine, 'controller'), iperf3Span(r.iperf3Intervals));
  });

  it("iperf3 -c → longhaul listen --iperf3: Longhaul's read rate within 2 % of iperf3's write rate; every byte counted", { timeout: 60_000 }, async (t) => {
    const r = await iperf3ToLonghaul(link!, SECONDS, WINDOW);
    const mine = r.longhaul;
    assert.equal(mine.partial, false, `complete: ${mine.partialReason} ${JSON.stringify(mine.errors)}`);
    const d = mine.directions.controllerToResponder!;
    // Longhaul's server ends a stream when it holds what the client's results say was sent.
    assert.equal(d.bytes, r.iperf3Bytes, 'Longhaul received every byte iperf3 -c wrote');
    t.diagnostic(
      `whole run: ${d.bytes} B; Longhaul's receiver ${mbit(d.bitsPerSecond)} over ${d.seconds?.toFixed(3)} s (first to last byte, so it includes draining the sender's buffer)`,
    );
    agree(t, 'iperf3 sending, Longhaul receiving', longhaulSpan(mine, 'responder'), iperf3Span(r.iperf3Intervals));
  });
});
