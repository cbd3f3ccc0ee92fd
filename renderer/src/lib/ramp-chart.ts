/**
 * The Ramp screen's chart as data (contract/udp-ramp.ts steps): each step at the rate asked of all
 * streams (x, bit/s), what arrived (left axis, bit/s) and the share lost (right axis, %), sorted by
 * the rate asked, so the line reads left to right however the ramp bisected. A step with no figure
 * is left out of that series (unknown is not 0).
 */
import type { UdpRampStep, UdpRampStepOutcome } from '../../../electron/contract/udp-ramp.js';

export interface RampPoint {
  x: number;
  y: number;
  outcome: UdpRampStepOutcome;
}

export interface RampChartData {
  arrived: RampPoint[];
  lossPercent: RampPoint[];
  /** The diagonal "arrived = asked" from the lowest to the highest rate asked (all streams), bit/s. */
  asked: { x: number; y: number }[];
}

export function rampChart(steps: readonly UdpRampStep[], streams: number): RampChartData {
  const sorted = [...steps].sort((a, b) => a.askedBitsPerSec - b.askedBitsPerSec);
  const arrived: RampPoint[] = [];
  const lossPercent: RampPoint[] = [];
  for (const s of sorted) {
    const x = s.askedBitsPerSec * streams;
    if (s.receivedBitsPerSec !== null) arrived.push({ x, y: s.receivedBitsPerSec, outcome: s.outcome });
    if (s.lossShare !== null) lossPercent.push({ x, y: s.lossShare * 100, outcome: s.outcome });
  }
  const first = sorted[0];
  const last = sorted.at(-1);
  const asked = first && last ? [first, last].map((s) => ({ x: s.askedBitsPerSec * streams, y: s.askedBitsPerSec * streams })) : [];
  return { arrived, lossPercent, asked };
}
