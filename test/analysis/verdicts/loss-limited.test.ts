/**
 * Loss-limited, on paths built for it on the kernel WAN harness (50 Mbit/s, 40 ms RTT, 1 % random
 * loss each way, iptables statistic):
 * - loss-cubic: a CUBIC sender: the loss rate from retransmits ÷ segments and Mathis's estimate, labelled as Reno's;
 * - loss-bbr: a BBR sender, which does not back off for random loss: it ran at 46 Mbit/s, so the loss
 *   is present but not the limit. The fixtures were recorded before results carried the congestion
 *   control's name; one test sets it as a run that records it (SocketReport.congestionControl) would.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosed, recorded } from './recorded.js';

describe('loss-limited (recorded on the WAN harness)', () => {
  it('1 % loss under CUBIC: loss-limited, with the loss rate and the Mathis estimate labelled as such; advice BBR + fq and where the loss is', () => {
    const { d, advice } = diagnosed(recorded('loss-cubic').result);
    assert.equal(d.verdict, 'loss-limited', d.sentence);
    assert.match(
      d.sentence,
      /^26 of 3,168 segments were retransmitted \(loss about 0\.82 %\); at RTT 44\.7 ms Reno's estimate for that loss \(Mathis: MSS × 1\.22 ÷ \(RTT × √p\)\) is 3\.5 Mbit\/s/,
    );
    assert.ok(Math.abs(d.numbers.lossRatio! - 26 / 3168) < 1e-3);
    assert.deepEqual(
      advice.map((a) => a.topic),
      ['congestion-control', 'path'],
    );
  });

  it('the same numbers from a BBR sender: loss present, not the limit', () => {
    const { result } = recorded('loss-cubic');
    for (const s of result.streams) if (s.send?.socket) s.send.socket.congestionControl = 'bbr';
    const { d } = diagnosed(result);
    assert.notEqual(d.verdict, 'loss-limited', d.sentence);
    assert.match(d.sentence, /Loss present \(0\.82 % of segments retransmitted\), not the limit: BBR does not slow down for random loss\./);
  });

  it('1 % loss under BBR, recorded: link-limited, the loss named as present and not the limit', () => {
    const { d } = diagnosed(recorded('loss-bbr').result);
    assert.equal(d.verdict, 'link-limited', d.sentence);
    assert.match(d.sentence, /Loss present \(1\.\d % of segments retransmitted\), not the limit/);
  });

  it('losses at a shallow queue the sender keeps full are the link, not random loss, even near Mathis', () => {
    // link-shallow (10 Mbit/s, 40 ms, ½-BDP queue, CUBIC) with a quarter of its retransmits: the loss rate
    // of a CI run (0.18 %) where Mathis's estimate came within 2 × the measured rate. The queue stood at
    // 0.4 of the minimum RTT the whole time: the bottleneck was busy, its overflow made the losses.
    const { result } = recorded('link-shallow');
    for (const st of result.streams)
      for (const x of st.send?.tcp ?? []) if (x.totalRetransSegments !== null) x.totalRetransSegments = Math.round(x.totalRetransSegments / 4);
    const { d } = diagnosed(result);
    assert.ok(d.numbers.lossRatio! < 0.0025, `loss ${d.numbers.lossRatio}`);
    assert.equal(d.verdict, 'link-limited', d.sentence);
  });
});
