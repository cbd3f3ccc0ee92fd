/**
 * The ramp's finding and its words (contract/udp-ramp.ts, contract/udp-ramp-text.ts): the highest
 * carried step and the lowest step above it, dropped or queued; the answer names a queued step by
 * what arrived, and each door names its own control (-b in the terminal, Bitrate in the app).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rampAnswered, rampFindings, type UdpRampStep } from '../../electron/contract/udp-ramp.js';
import { rampAnswer, rampStepLine } from '../../electron/contract/udp-ramp-text.js';

const step = (askedBitsPerSec: number, outcome: UdpRampStep['outcome'], receivedBitsPerSec: number, lossShare = 0): UdpRampStep => ({
  askedBitsPerSec,
  receivedBitsPerSec,
  lossShare,
  jitterMs: 0.5,
  senderShortShare: 0,
  receiverDrops: 0,
  outcome,
  resultId: String(askedBitsPerSec),
});

describe('the UDP ramp in words', () => {
  // An 8 Mbit/s link (7.78 Mbit/s of payload) behind a queue: 9.31M arrived whole but at the link's rate.
  const steps = [step(4e6, 'carried', 4.04e6), step(8e6, 'carried', 7.82e6), step(16e6, 'dropped', 7.79e6, 0.42), step(9.31e6, 'queued', 7.8e6)];

  it('brackets the answer between the highest carried step and the lowest one above the path, queued or dropped', () => {
    const f = rampFindings(steps);
    assert.equal(f.carried?.askedBitsPerSec, 8e6);
    assert.equal(f.firstDropped?.askedBitsPerSec, 9.31e6, 'the queued step is above the path, and lower than the dropped one');
  });

  it('says what arrived at a queued step, in the words of each door', () => {
    const input = { lossThreshold: 0.01, steps, ...rampFindings(steps), end: 'found' as const };
    assert.equal(
      rampAnswer(input, 'terminal'),
      'Result: the path carries 7.82 Mbit/s (-b 8M: 0 % lost, jitter 0.500 ms) with at most 1 % lost; at -b 9.31M only 7.80 Mbit/s arrived, the rest held in a queue on the path.',
    );
    assert.match(rampAnswer(input, 'app'), /^Result: the path carries 7\.82 Mbit\/s \(Bitrate 8M: .*; at Bitrate 9\.31M only 7\.80 Mbit\/s arrived/);
    assert.match(rampStepLine(steps[3]!, 3), /9\.31M\s+7\.80 Mbit\/s\s+0 %\s+0\.500 ms\s+queued: arrived slower than sent$/);
    assert.equal(rampAnswered('found'), true);
    assert.equal(rampAnswered('stopped'), false);
  });
});
