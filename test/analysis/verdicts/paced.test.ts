/**
 * A sender paced by --bitrate, from the recorded rate-limited-sender run (20 Mbit/s, 40 ms, CUBIC on the
 * kernel WAN harness, `-b 5M`, kernel SO_MAX_PACING_RATE): the kernel always had data queued, so the
 * timer rules alone call it link-limited with path advice. The paced rule names the pacing instead, and
 * steps aside when the run carried far less than it asked for (another limit came first).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { whyOf } from '../../../electron/contract/answer-text.js';
import { diagnosed, recorded } from './recorded.js';

describe('paced by --bitrate', () => {
  it('the recorded -b 5M run: application-limited, naming the rate, --bitrate and the kernel; advice on --bitrate only', () => {
    const { result } = recorded('rate-limited-sender');
    assert.equal(result.params.bitrateBitsPerSec, 5e6);
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'application-limited', d.sentence);
    assert.match(d.sentence, /^The sender was paced at 5 Mbit\/s per stream by --bitrate \(kernel SO_MAX_PACING_RATE on the controller\)/);
    assert.equal(d.numbers.pacedBitsPerSecond, 5e6);
    assert.deepEqual(
      advice.map((a) => [a.topic, a.setting]),
      [['application', "Longhaul's --bitrate (the senders' pacing, per stream)"]],
    );
  });

  it('the same run without the asked rate is not called paced (the timer rules alone do not see the pacing)', () => {
    const { result } = recorded('rate-limited-sender');
    delete result.params.bitrateBitsPerSec;
    delete result.pacing;
    const { d } = diagnosed(result);
    assert.notEqual(d.verdict, 'application-limited', d.sentence);
  });

  it('asked 4 × what it carried: another limit came first, and the paced rule steps aside', () => {
    const { result } = recorded('rate-limited-sender');
    result.params.bitrateBitsPerSec = 20e6;
    const { d } = diagnosed(result);
    assert.doesNotMatch(d.sentence, /--bitrate/);
  });

  it('carried 2.5 × the pace while the kernel held the cap: paced, the excess named as the first burst', () => {
    const { result } = recorded('rate-limited-sender');
    result.params.bitrateBitsPerSec = 2e6;
    for (const side of result.pacing!.sides) side.kernelPacingBitsPerSec = 2e6;
    const { d } = diagnosed(result);
    assert.equal(d.case, 'application-limited/paced', d.sentence);
    assert.equal(d.facts?.pacing?.firstBurst, true);
    assert.match(d.sentence, /more, by the first burst the kernel sends before it paces/);
    assert.match(whyOf(d) ?? '', /paced to 2.0 Mbit\/s \(more arrived: the kernel's first burst is unpaced\)/);
  });

  it('carried 2.5 × the pace and the kernel read a faster pace than asked: the pacing did not hold, and the rule steps aside', () => {
    const { result } = recorded('rate-limited-sender');
    result.params.bitrateBitsPerSec = 2e6;
    for (const side of result.pacing!.sides) side.kernelPacingBitsPerSec = 5e6;
    const { d } = diagnosed(result);
    assert.notEqual(d.case, 'application-limited/paced', d.sentence);
  });
});
