/**
 * Send-buffer-limited. Capping tcp_wmem in the sending namespace of the kernel WAN harness did not cap
 * the data in flight on this kernel (85 segments in flight under a 32 KiB cap), so no run could be
 * recorded where the send buffer binds. The test takes the recorded rmem-cubic run (20 Mbit/s, 40 ms,
 * CUBIC) and moves its limited time from the receive window to the send buffer, as Linux's
 * sndbuf_limited timer reports a full send buffer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosed, recorded } from './recorded.js';

describe('send-buffer-limited', () => {
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
    assert.match(d.sentence, /^The send buffer of the sending PC \(the controller\) held it back 100% of its busy time/);
    assert.ok(advice.length > 0 && advice.every((a) => a.topic === 'send-buffer' && a.side === 'controller'));
  });
});
