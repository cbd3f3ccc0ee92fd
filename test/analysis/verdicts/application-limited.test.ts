/**
 * Application-limited only with the mechanism shown, and unequal streams. From the recorded rmem-cubic
 * run (20 Mbit/s, 40 ms, CUBIC on the kernel WAN harness, one stream of 6 s): a second stream is added
 * that moved its share of `-n` and finished after 2 s, as an equal split does when one stream is faster.
 * Summed over the whole run its idle 4 s used to read as "application-limited"; each stream over its own
 * active time is busy throughout. The unequal-n run is the same case recorded for real: 20 Mbit/s, 40 ms,
 * BBR, -P 8 -n 12M, the eight streams finishing between 3 and 6 s.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StreamResult } from '../../../electron/contract/result.js';
import { diagnoseLimiter } from '../../../electron/analysis/limiter.js';
import { limiterInputs } from '../../../electron/analysis/limiter-inputs.js';
import { diagnosed, recorded } from './recorded.js';

describe('application-limited and unequal streams', () => {
  it('a stream that finished its bytes early is not idle: no application-limited verdict', () => {
    const { result } = recorded('link-shallow');
    const first = result.streams[0]!;
    const early: StreamResult = structuredClone(first);
    early.id = 1;
    early.send!.lastT = 2;
    early.send!.tcp = early.send!.tcp!.map((x) => (x.t <= 2.1 ? x : { ...x, busyUs: early.send!.tcp!.find((y) => y.t > 1.9)!.busyUs, unackedSegments: 0 }));
    result.streams.push(early);
    const total = result.directions.controllerToResponder!;
    const i = limiterInputs(result.streams, total.bitsPerSecond, total.seconds);
    // Busy over each stream's own active time: about 8 s of 8 s plus 2 s of 2 s, not 10 s of 2 × 8 s.
    assert.ok(i.busySeconds! / i.transferSeconds! > 0.95, `busy ${i.busySeconds} of ${i.transferSeconds} s`);
    const { d } = diagnosed(result);
    assert.notEqual(d.verdict, 'application-limited', d.sentence);
  });

  it('recorded -P 8 -n 12M: streams that finished early are not idle; the link is the limit', () => {
    const { result } = recorded('unequal-n');
    const total = result.directions.controllerToResponder!;
    const ends = result.streams.map((s) => s.send!.lastT!);
    assert.ok(Math.max(...ends) - Math.min(...ends) > 1, `streams ended at ${ends.join(', ')} s`);
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'link-limited', d.sentence);
    assert.deepEqual(
      advice.map((a) => a.topic),
      ['path'],
    );
    // The rule this replaced: each stream's busy time from the handshake, over the whole run × streams.
    // On this run that reads as idle, and the same rules would call the application the limit.
    const i = limiterInputs(result.streams, total.bitsPerSecond, total.seconds);
    const busySinceHandshake = result.streams.reduce((a, s) => a + s.send!.tcp!.at(-1)!.busyUs! / 1e6, 0);
    const old = { ...i, busySeconds: busySinceHandshake, transferSeconds: total.seconds! * result.streams.length, senderLimitedSeconds: null };
    assert.ok(old.busySeconds / old.transferSeconds < 0.9);
    assert.equal(diagnoseLimiter(old, result.streams.length).verdict, 'application-limited');
  });

  it('a sender busy 30 % of its active time: application-limited, naming the sending side and the share', () => {
    const { result } = recorded('link-shallow');
    for (const s of result.streams)
      for (const x of s.send?.tcp ?? []) {
        x.busyUs = Math.round(x.t * 0.3e6);
        x.sndCwndBytes = 1_000_000;
      }
    const { d, advice } = diagnosed(result);
    assert.equal(d.verdict, 'application-limited', d.sentence);
    assert.match(
      d.sentence,
      /the sending application \(on the controller\) left the socket empty: the kernel had data in flight only 30 % of the stream's active time/,
    );
    assert.deepEqual(
      advice.map((a) => `${a.side} ${a.topic}`),
      ['controller application'],
    );
  });
});
