/**
 * Congestion-limited, and what an unknown retransmit count says. From the loss-cubic recording (50 Mbit/s,
 * 40 ms, 1 % loss, CUBIC on the kernel WAN harness) with the retransmit counts removed, as a result from
 * an OS that does not report them reads: the verdict must say "unknown", never "no retransmissions: still growing".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosed, recorded } from './recorded.js';

describe('congestion-limited (from a recorded run)', () => {
  it('an unknown retransmit count is said as unknown, never as none', () => {
    const { result } = recorded('loss-cubic');
    for (const s of result.streams) for (const x of s.send?.tcp ?? []) x.totalRetransSegments = null;
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'congestion-limited', d.sentence);
    assert.match(d.sentence, /retransmissions unknown/);
    assert.doesNotMatch(d.sentence, /no retransmissions|still growing/);
    assert.deepEqual(
      advice.map((a) => a.topic),
      ['run'],
    );
  });

  it('no retransmits and no queue: the window was still growing, and a longer run is advised', () => {
    const { result } = recorded('loss-cubic');
    for (const s of result.streams) for (const x of s.send?.tcp ?? []) x.totalRetransSegments = 0;
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'congestion-limited', d.sentence);
    assert.match(d.sentence, /with no retransmissions: the congestion window was still growing \(slow start\)/);
    assert.match(advice[0]!.how, /-t 30/);
  });
});
