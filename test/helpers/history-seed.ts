/**
 * A results folder as a lab's History holds it, for the tests of `longhaul history` and the History
 * screen: two schedules' runs (one of them UDP), a `--bidir` run, runs started by hand (one partial,
 * one whose partner calls itself like a spreadsheet formula), all within the last hours before `now`.
 */
import { HistoryStore } from '../../electron/app/history-store.js';
import type { Diagnosis, LonghaulResult, TotalResult } from '../../electron/contract/result.js';
import type { DiagnosisCase } from '../../electron/contract/finding.js';
import { fakeResult } from './results.js';

const MIN = 60_000;

function total(bytes: number, seconds: number, extra: Partial<TotalResult> = {}): TotalResult {
  const bps = (bytes * 8) / seconds;
  return { bytes, sentBytes: bytes, seconds, bitsPerSecond: bps, streamSumBitsPerSecond: bps * 1.01, completions: 100, ...extra };
}

function finding(direction: Diagnosis['direction'], verdict: Diagnosis['verdict'], c: DiagnosisCase, rttMs: number | null, retrans: number | null): Diagnosis {
  return {
    direction,
    verdict,
    case: c,
    sentence: `${verdict} (seeded)`,
    numbers: {
      measuredBitsPerSecond: null,
      rttSeconds: rttMs === null ? null : rttMs / 1000,
      windowBytes: null,
      windowBitsPerSecond: null,
      cwndBytes: null,
      cwndBitsPerSecond: null,
      retransSegments: retrans,
      rwndLimitedShare: null,
      sndbufLimitedShare: null,
      windowScale: null,
    },
  };
}

/** A hex id for seeded run `n`. */
export function seededId(n: number): string {
  return (0xabc00000 + n).toString(16).padStart(16, '0');
}

function base(n: number, startedMs: number, responder: string, address: string): LonghaulResult {
  const r = fakeResult(seededId(n), new Date(startedMs).toISOString(), 0);
  return {
    ...r,
    endedAt: new Date(startedMs + 10_000).toISOString(),
    controller: { ...r.controller, hostname: 'bench-pc' },
    responder: { ...r.responder, hostname: responder, address },
    params: { ...r.params, seconds: 10 },
  };
}

/** Seeded runs: what each is, for the tests' expectations. */
interface SeededHistory {
  results: LonghaulResult[];
  /** Runs of schedule `lab` (TCP; one of them --bidir), `voice` (UDP), and by hand. */
  lab: number;
  voice: number;
  manual: number;
}

/** Save the lab's runs into `dir` (a results folder), the newest 5 min before `now`. */
export async function seedHistory(dir: string, now: Date): Promise<SeededHistory> {
  const t = (minutesAgo: number): number => now.getTime() - minutesAgo * MIN;
  const results: LonghaulResult[] = [];
  // lab: lab-pc every 20 min, TCP, link-limited at 94 Mbit/s with a few retransmits.
  for (let i = 0; i < 4; i++) {
    const r = base(i, t(125 - i * 20), 'lab-pc', '10.0.0.5:5211');
    const tot = total(117_500_000, 10);
    results.push({
      ...r,
      total: tot,
      directions: { controllerToResponder: tot },
      diagnosis: [finding('controllerToResponder', 'link-limited', 'link-limited/rate-reached', 12.5 + i, 3 + i)],
      schedule: { name: 'lab', slot: 1_000_000 + i },
    });
  }
  // lab, --bidir: both directions measured, each with its verdict.
  {
    const r = base(4, t(45), 'lab-pc', '10.0.0.5:5211');
    const up = total(60_000_000, 10);
    const down = total(50_000_000, 10);
    results.push({
      ...r,
      params: { ...r.params, direction: 'bidir', streams: 2 },
      total: total(110_000_000, 10),
      directions: { controllerToResponder: up, responderToController: down },
      diagnosis: [
        finding('controllerToResponder', 'window-limited', 'window-limited/os-receive-buffer', 30, 0),
        finding('responderToController', 'receiver-limited', 'receiver-limited/app-lagged', 31, 1),
      ],
      schedule: { name: 'lab', slot: 1_000_004 },
    });
  }
  // voice: UDP to a satellite PC, loss and jitter measured, no retransmits (UDP has none).
  for (let i = 0; i < 2; i++) {
    const r = base(10 + i, t(100 - i * 60), 'sat-pc', '10.0.9.9:5211');
    const udp = { datagrams: 9_950, bytes: 14_527_000, lost: 50, outOfOrder: 0, duplicates: 0, jitterMs: 1.234 + i };
    const tot = total(14_527_000, 10, { udp });
    results.push({
      ...r,
      params: { ...r.params, protocol: 'udp', bitrateBitsPerSec: 12_000_000 },
      total: tot,
      directions: { controllerToResponder: tot },
      diagnosis: [finding('controllerToResponder', 'loss-limited', 'loss-limited/udp-dropped', null, null)],
      schedule: { name: 'voice', slot: 2_000_000 + i },
    });
  }
  // By hand: a complete run, and a partial one whose partner calls itself like a formula.
  {
    const r = base(20, t(30), 'lab-pc', '10.0.0.5:5211');
    const tot = total(100_000_000, 10);
    results.push({
      ...r,
      total: tot,
      directions: { controllerToResponder: tot },
      diagnosis: [finding('controllerToResponder', 'cpu-limited', 'cpu-limited/process', 0.4, 0)],
    });
    const p = base(21, t(5), '=HYPERLINK("http://x")', '10.0.0.7:5211');
    const ptot = total(5_000_000, 2.5);
    results.push({
      ...p,
      total: ptot,
      directions: { controllerToResponder: ptot },
      partial: true,
      partialReason: 'the partner went away',
      errors: [{ code: 'LH_ERR_PEER_GONE', message: 'the partner closed the control connection' }],
    });
  }
  const store = new HistoryStore(dir);
  for (const r of results) await store.save(r);
  return { results, lab: 5, voice: 2, manual: 2 };
}
