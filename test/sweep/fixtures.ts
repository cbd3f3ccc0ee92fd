/** Sweep plans and run records for the sweep tests (no sockets). */
import type { SweepPlan, SweepRunRecord, SweepRunStatus } from '../../electron/contract/sweep.js';
import { expandPlan } from '../../electron/contract/sweep-plan.js';

export function plan(over: Partial<SweepPlan> = {}): SweepPlan {
  return {
    target: { kind: 'loopback' },
    base: { streams: 1, bufferBytes: 131072, windowBytes: null, bytes: null, seconds: 1, direction: 'forward', intervalSeconds: 1 },
    dimensions: [
      { name: 'windowBytes', values: [65536, null] },
      { name: 'bufferBytes', values: [4096, 131072, 8192] },
    ],
    repeat: 2,
    pauseSeconds: 0.5,
    order: 'shuffled',
    seed: 42,
    ...over,
  };
}

export function run(p: SweepPlan, cell: number, repeat: number, status: SweepRunStatus, bps: number | null, sequence = 0): SweepRunRecord {
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  return {
    cell,
    repeat,
    sequence,
    settings: expandPlan(p)[cell]!.settings,
    status,
    startedAt: at,
    endedAt: at,
    bitsPerSecond: bps,
    streamSumBitsPerSecond: bps === null ? null : bps + 1,
    verdicts: status === 'done' ? ['window-limited'] : [],
    error: status === 'done' ? null : { code: 'LH_ERR_PEER_GONE', message: 'gone' },
    result: null,
  };
}
