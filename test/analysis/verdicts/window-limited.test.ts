/**
 * Window-limited, on paths built for it on the kernel WAN harness (20 Mbit/s, 40 ms RTT):
 * - window-w: CUBIC, `longhaul run -w 16K` (the request holds the window);
 * - rmem-bbr: the host's BBR sender, the receiving namespace's net.ipv4.tcp_rmem capped at 32 KiB:
 *   measured within 5 % of window ÷ RTT while the kernel counted only 50 % rwnd-limited time (a paced
 *   sender is rarely blocked by the window that sets its rate). Longhaul used to say link-limited here.
 * - rmem-cubic: the same cap under CUBIC (≈ 100 % rwnd-limited time).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatSummary } from '../../../electron/report/summary-block.js';
import { diagnosed, recorded } from './recorded.js';

describe('window-limited (recorded on the WAN harness)', () => {
  it("-w 16K: the window is the limit, and the advice is Longhaul's own request", () => {
    const { d, advice } = diagnosed(recorded('window-w').result);
    assert.equal(d.verdict, 'window-limited', d.sentence);
    assert.match(d.sentence, /^Receiver window 15,928 B over RTT 42\.4 ms allows at most 3\.0 Mbit\/s; measured 3\.0 Mbit\/s: the window is the limit\./);
    assert.ok(advice.some((a) => a.topic === 'longhaul-request'));
  });

  it("tcp_rmem capped at the receiver, BBR sender: window-limited although only half the busy time was rwnd-limited; advice goes to the receiver's OS", () => {
    const { d, advice } = diagnosed(recorded('rmem-bbr').result);
    assert.equal(d.verdict, 'window-limited', d.sentence);
    assert.ok(d.numbers.rwndLimitedShare! < 0.6, `rwnd share ${d.numbers.rwndLimitedShare}`);
    assert.match(d.sentence, /a paced sender is rarely blocked by the window that sets its rate/);
    const rmem = advice.filter((a) => a.topic === 'receive-window');
    assert.ok(rmem.length > 0 && rmem.every((a) => a.side === 'responder'), JSON.stringify(advice.map((a) => [a.side, a.topic])));
  });

  it('tcp_rmem capped at the receiver, CUBIC sender: window-limited', () => {
    const { d } = diagnosed(recorded('rmem-cubic').result);
    assert.equal(d.verdict, 'window-limited', d.sentence);
  });

  it('loopback: window ÷ an RTT that grew under load equals any rate, so it proves nothing; the timers decide', () => {
    // As measured by `longhaul loopback -t 2` here: 859,136 B over 457 µs (minimum 4 µs) ≈ 15 Gbit/s, 14 Gbit/s measured, 5 % rwnd-limited.
    const { result } = recorded('rmem-cubic');
    result.directions.controllerToResponder!.bitsPerSecond = 14e9;
    for (const s of result.streams)
      for (const x of s.send?.tcp ?? []) {
        x.rttUs = 457;
        x.minRttUs = 4;
        x.sndWndBytes = 859_136;
        x.sndCwndBytes = 8_000_000;
        x.rwndLimitedUs = Math.round((x.busyUs ?? 0) * 0.05);
      }
    const { d } = diagnosed(result);
    assert.notEqual(d.verdict, 'window-limited', d.sentence);
    assert.doesNotMatch(d.sentence, /the path \(link or receiving host\) is the limit/);
  });

  it("the BDP line is the path's (stated rate × minimum RTT), not today's window again", () => {
    const { r } = diagnosed(recorded('rmem-bbr').result);
    assert.match(
      formatSummary(r),
      /^Bandwidth-delay product: unknown: the path's rate is unknown; give it with --path-rate.*today's window, 19,328 bytes, carries at most/m,
    );
    r.pathRate = { bitsPerSecond: 20e6, source: 'given' };
    // 20 Mbit/s × the 40.1 ms minimum RTT / 8 ≈ 100 kB: five times the window the receiver advertised.
    assert.match(
      formatSummary(r),
      /^Bandwidth-delay product of the path: 100,\d{3} bytes \(the stated path rate, 20\.00 Mbit\/s, x 40\.1 ms \/ 8\): the window the path needs; today's window, 19,328 bytes/m,
    );
  });
});
