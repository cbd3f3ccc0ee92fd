/**
 * Send-buffer-limited, from a run where the sender's OS capped its send buffer by construction
 * (wmem-bbr: 100 Mbit/s, 80 ms, BBR, tcp_wmem capped at 128 KiB in the sending namespace, so at most
 * about 128 KiB ÷ 80 ms ≈ 13 Mbit/s). An unpaced CUBIC sender on this kernel queued far more than its
 * sk_sndbuf (docs/diagnosis.md), so the recorded run uses a paced sender. The second case takes the
 * recorded rmem-cubic run and moves its limited time from the receive window to the send buffer, as
 * Linux's sndbuf_limited timer reports a full send buffer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosed, recorded } from './recorded.js';

describe('send-buffer-limited', () => {
  it("recorded: the sender's tcp_wmem capped at 128 KiB on a 1 MB path: the sending PC's send buffer is named and advised", () => {
    const { result } = recorded('wmem-bbr');
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'send-buffer-limited', d.sentence);
    assert.match(d.sentence, /^The send buffer of the sending PC \(the controller\) held it back \d+ % of its busy time/);
    // The cap bound: what was in flight (rate × RTT) is below the 131,072 B cap, far below the path's 1 MB.
    const inFlightBytes = (d.numbers.measuredBitsPerSecond! / 8) * d.numbers.rttSeconds!;
    assert.ok(inFlightBytes < 131_072, `in flight ${Math.round(inFlightBytes)} B`);
    assert.ok(d.numbers.sndbufLimitedShare! >= 0.5);
    assert.ok(advice.length > 0 && advice.every((a) => a.topic === 'send-buffer' && a.side === 'controller'));
    assert.ok(advice.some((a) => /net\.ipv4\.tcp_wmem/.test(a.setting)));
    // The controller read its own setting when it wrote the result (recomputed here without a host to read).
    assert.ok(result.advice?.some((a) => /net\.ipv4\.tcp_wmem/.test(a.setting) && a.currentValue === '4096 131072 131072'));
  });

  it('the send buffer, not the window: the sending PC is named and its send buffer is advised', () => {
    const { result } = recorded('rmem-cubic');
    for (const s of result.streams)
      for (const x of s.send?.tcp ?? []) {
        x.sndbufLimitedUs = x.rwndLimitedUs;
        x.rwndLimitedUs = 0;
        x.sndWndBytes = 4_000_000;
      }
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'send-buffer-limited', d.sentence);
    assert.match(d.sentence, /^The send buffer of the sending PC \(the controller\) held it back 100 % of its busy time/);
    assert.ok(advice.length > 0 && advice.every((a) => a.topic === 'send-buffer' && a.side === 'controller'));
  });
});
