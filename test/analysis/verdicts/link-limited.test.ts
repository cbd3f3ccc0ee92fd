/**
 * Link-limited, with the queueing delay stated, on paths built for it on the kernel WAN harness:
 * - link-shallow: 10 Mbit/s, 40 ms RTT, CUBIC, a tbf queue of half a BDP (25 kB, 20 ms);
 * - bufferbloat-cubic: 10 Mbit/s, 20 ms RTT, CUBIC, a tbf queue of 10 × BDP (250 kB, 200 ms):
 *   Longhaul used to say "congestion-limited … congestion control is the limit";
 * - bufferbloat-bbr: 10 Mbit/s, 40 ms RTT, BBR, a tbf queue of 10 × BDP (500 kB, 400 ms): BBR keeps
 *   about one BDP queued whatever the queue's depth, so the queueing is stated and not called bufferbloat.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosed, recorded } from './recorded.js';

describe('link-limited (recorded on the WAN harness)', () => {
  it('a shallow queue: the link, with the few ms of queueing stated and no bufferbloat', () => {
    const { d, advice } = diagnosed(recorded('link-shallow').result);
    assert.equal(d.verdict, 'link-limited', d.sentence);
    assert.match(d.sentence, /the path adds about \d+(\.\d)? ms of queueing under load\.$/);
    assert.doesNotMatch(d.sentence, /bufferbloat/);
    assert.deepEqual(
      advice.map((a) => a.topic),
      ['path'],
    );
  });

  it('a queue of 10 × BDP under CUBIC: the link, bufferbloat named with its queueing delay; advice for the queue, not a buffer', () => {
    const { d, advice } = diagnosed(recorded('bufferbloat-cubic').result);
    assert.equal(d.verdict, 'link-limited', d.sentence);
    assert.match(
      d.sentence,
      /Under load the RTT was 184\.2 ms against a minimum of 20\.3 ms: the path adds about 163\.9 ms of queueing under load \(bufferbloat/,
    );
    assert.doesNotMatch(d.sentence, /congestion control is the limit|still growing/);
    assert.ok(d.numbers.queueingSeconds! > 0.1);
    assert.deepEqual(
      advice.map((a) => a.topic),
      ['path', 'congestion-control'],
    );
    assert.match(advice[0]!.neededValue, /fq_codel or CAKE/);
  });

  it('a queue of 10 × BDP under BBR: the link, with the queueing BBR kept stated and no bufferbloat named', () => {
    const { d, advice } = diagnosed(recorded('bufferbloat-bbr').result);
    assert.equal(d.verdict, 'link-limited', d.sentence);
    assert.match(d.sentence, /Under load the RTT was [\d.]+ ms against a minimum of 40\.3 ms: the path adds about [\d.]+ ms of queueing under load\./);
    assert.doesNotMatch(d.sentence, /bufferbloat/);
    // Far less than the 400 ms the queue could hold: BBR does not fill it.
    assert.ok(d.numbers.queueingSeconds! < 0.1, `queueing ${d.numbers.queueingSeconds} s`);
    assert.deepEqual(
      advice.map((a) => a.topic),
      ['path'],
    );
  });

  it('without a minimum RTT the queueing delay is said to be unknown, not guessed', () => {
    const { result } = recorded('link-shallow');
    for (const s of result.streams) for (const x of s.send?.tcp ?? []) delete x.minRttUs;
    const { d } = diagnosed(result);
    assert.match(d.sentence, /queueing delay under load is unknown/);
  });
});
