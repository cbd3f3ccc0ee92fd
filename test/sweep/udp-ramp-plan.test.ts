/** The UDP ramp's next rate (sweep/udp-ramp-plan.ts): doubling, then bisecting, and each way it ends. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UdpRampStepOutcome } from '../../electron/contract/udp-ramp.js';
import { nextRampRate, type RampPlanOptions } from '../../electron/sweep/udp-ramp-plan.js';

const O: RampPlanOptions = { startBitsPerSec: 1e6, minBitsPerSec: 1e3, maxBitsPerSec: 1e12, precision: 0.025, maxSteps: 24 };

/** Run the plan against a path that carries `limit` bit/s per stream (a rate above it is dropped). */
function walk(limit: number, o: RampPlanOptions = O, outcomeAt?: (rate: number) => UdpRampStepOutcome): { steps: number[]; end: string } {
  const steps: { askedBitsPerSec: number; outcome: UdpRampStepOutcome }[] = [];
  for (let i = 0; i < 100; i++) {
    const n = nextRampRate(steps, o);
    if ('end' in n) return { steps: steps.map((s) => s.askedBitsPerSec), end: n.end };
    steps.push({ askedBitsPerSec: n.rate, outcome: outcomeAt?.(n.rate) ?? (n.rate <= limit ? 'carried' : 'dropped') });
  }
  throw new Error('the plan did not end in 100 steps');
}

describe('the UDP ramp plan', () => {
  it('doubles from the start while carried, then narrows to within the precision of the limit', () => {
    const { steps, end } = walk(19.44e6, { ...O, startBitsPerSec: 8e6 });
    assert.equal(end, 'found');
    assert.deepEqual(steps.slice(0, 3), [8e6, 16e6, 32e6]);
    const carried = Math.max(...steps.filter((s) => s <= 19.44e6));
    const dropped = Math.min(...steps.filter((s) => s > 19.44e6));
    assert.ok(dropped / carried <= 1.025, `${carried} carried, ${dropped} dropped`);
    assert.ok(carried / 19.44e6 >= 0.975, 'the answer within 2.5 % below the limit');
    assert.ok(steps.length <= 10, `${steps.length} steps`);
  });

  it('narrows between carried and queued steps as between carried and dropped: a queue holding the excess is above the path', () => {
    const { steps, end } = walk(19.44e6, { ...O, startBitsPerSec: 8e6 }, (r) => (r <= 19.44e6 ? 'carried' : r < 30e6 ? 'queued' : 'dropped'));
    assert.equal(end, 'found');
    const carried = Math.max(...steps.filter((s) => s <= 19.44e6));
    assert.ok(carried / 19.44e6 >= 0.975, `${carried}: not the rate a queue absorbed`);
  });

  it('halves from the start when even it is dropped, and says when nothing is carried', () => {
    const { steps, end } = walk(300e3);
    assert.equal(end, 'found');
    assert.deepEqual(steps.slice(0, 3), [1e6, 500e3, 250e3]);
    assert.equal(walk(0).end, 'nothing-carried');
  });

  it("ends at the sending PC's limit, on a failed step, at the highest rate, and after the most steps", () => {
    assert.equal(walk(1e9, O, (r) => (r > 100e6 ? 'sender-short' : 'carried')).end, 'sender-limit');
    // The receiving PC's own sockets dropped it: that PC's limit, not the path's; no bisection towards it.
    const receiver = walk(1e9, O, (r) => (r > 100e6 ? 'receiver-dropped' : 'carried'));
    assert.equal(receiver.end, 'receiver-limit');
    assert.equal(receiver.steps.at(-1), 128e6, 'ends on the first step the receiving PC dropped');
    assert.equal(walk(1e9, O, (r) => (r > 4e6 ? 'failed' : 'carried')).end, 'failed');
    assert.equal(walk(Infinity, { ...O, maxBitsPerSec: 64e6 }).end, 'max-rate');
    const capped = walk(19.44e6, { ...O, maxSteps: 4 });
    assert.deepEqual([capped.end, capped.steps.length], ['max-steps', 4]);
  });

  it('asks rates a person would type (three significant digits) when it narrows', () => {
    const { steps } = walk(19.44e6, { ...O, startBitsPerSec: 8e6 });
    for (const s of steps) assert.equal(Number(s.toPrecision(3)), s, `${s}`);
  });
});
