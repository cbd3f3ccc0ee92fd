/**
 * The path's capacity (`--capacity`) on the kernel WAN harness: Longhaul's own
 * tuned run must find the tbf rate's payload share (-20 %/+10 % until issue 37 fixes the estimator), at three rates
 * and RTTs (one over 1 s), with the receiving namespace's tcp_rmem capped small
 * so the user's run is window-limited: the estimate must not inherit the cap,
 * and the verdict then uses the measured rate. Needs root; skips with the reason otherwise.
 */
import { after, describe, it } from 'node:test';
import { assertCapacity, capacityRun, destroyCapacityLink } from './capacity-probe.js';
import { wanSkipReason } from './preflight.js';
import type { WanLinkOptions } from './wan-link.js';

const skip = (await wanSkipReason()) ?? false;
const MBIT = 1_000_000;

interface Cell {
  name: string;
  link: WanLinkOptions;
  seconds: number;
}

const CELLS: Cell[] = [
  { name: '20 Mbit/s, 40 ms RTT', link: { rateBitsPerSec: 20 * MBIT, oneWayDelayMs: 20 }, seconds: 3 },
  { name: '40 Mbit/s, 100 ms RTT', link: { rateBitsPerSec: 40 * MBIT, oneWayDelayMs: 50 }, seconds: 3 },
  { name: '4 Mbit/s, 1.2 s RTT (a satellite hop)', link: { rateBitsPerSec: 4 * MBIT, oneWayDelayMs: 600 }, seconds: 6 },
];

describe('path capacity (--capacity) on the kernel WAN harness', { skip, timeout: 400_000 }, () => {
  after(destroyCapacityLink);

  for (const cell of CELLS) {
    it(`${cell.name}: near the tbf payload rate (±5 %, segments counted as they arrive), receiver's tcp_rmem capped at 64 KiB`, async (t) => {
      const r = await capacityRun(cell.link, cell.seconds);
      assertCapacity(t, r, cell.link.rateBitsPerSec);
    });
  }
});
