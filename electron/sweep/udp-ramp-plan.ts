/**
 * The UDP ramp's next rate (contract/udp-ramp.ts), from the steps so far: double while each step is
 * carried, then bisect (geometrically) between the highest rate carried and the lowest dropped until
 * they are within the precision; halve from the start while even it is dropped. Pure: the runner
 * (udp-ramp.ts) runs the steps.
 */
import { aboveThePath, type UdpRampEnd, type UdpRampStepOutcome } from '../contract/udp-ramp.js';

export interface RampPlanOptions {
  startBitsPerSec: number;
  minBitsPerSec: number;
  maxBitsPerSec: number;
  precision: number;
  maxSteps: number;
}

interface Tried {
  askedBitsPerSec: number;
  outcome: UdpRampStepOutcome;
}

/** The next rate to ask (bit/s per stream), or why the ramp ends. */
export function nextRampRate(steps: readonly Tried[], o: RampPlanOptions): { rate: number } | { end: UdpRampEnd } {
  const last = steps.at(-1);
  if (!last) return { rate: o.startBitsPerSec };
  if (last.outcome === 'failed') return { end: 'failed' };
  if (last.outcome === 'sender-short') return { end: 'sender-limit' };
  if (last.outcome === 'receiver-dropped') return { end: 'receiver-limit' };
  const carried = steps.filter((s) => s.outcome === 'carried').map((s) => s.askedBitsPerSec);
  const good = carried.length ? Math.max(...carried) : null;
  const dropped = steps.filter((s) => aboveThePath(s.outcome) && (good === null || s.askedBitsPerSec > good)).map((s) => s.askedBitsPerSec);
  const bad = dropped.length ? Math.min(...dropped) : null;
  if (good !== null && bad !== null && bad / good <= 1 + o.precision) return { end: 'found' };
  if (steps.length >= o.maxSteps) return { end: 'max-steps' };
  if (bad === null) {
    if (good === null) return { end: 'failed' }; // unreachable: the last step was carried or dropped
    if (good >= o.maxBitsPerSec) return { end: 'max-rate' };
    return { rate: Math.min(o.maxBitsPerSec, good * 2) };
  }
  if (good === null) {
    if (bad <= o.minBitsPerSec) return { end: 'nothing-carried' };
    return { rate: Math.max(o.minBitsPerSec, bad / 2) };
  }
  return { rate: roundRate(Math.sqrt(good * bad)) };
}

/** A rate as a person would type it: three significant digits. */
function roundRate(bps: number): number {
  const scale = 10 ** (Math.floor(Math.log10(bps)) - 2);
  return Math.round(bps / scale) * scale;
}
