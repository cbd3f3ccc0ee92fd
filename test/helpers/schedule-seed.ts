/**
 * Six hours of one schedule, as History holds them, for the tests of the HTML report's schedule view:
 * `lab` every 20 min against three peers — `lab-pc` link-limited at about 94 Mbit/s (capacity
 * measured each test) until its window shrinks to about 40 Mbit/s two hours before `now`;
 * `branch-pc` `--bidir`, both directions measured; and a peer that calls itself `<script>…`,
 * one of whose tests ended early and one measured nothing. Plus a run by hand and one of `voice`.
 */
import { HistoryStore } from '../../electron/app/history-store.js';
import type { CapacityInfo } from '../../electron/contract/capacity-info.js';
import type { Diagnosis, LonghaulResult, TotalResult } from '../../electron/contract/result.js';
import { fakeResult } from './results.js';

const MIN = 60_000;
/** The hostile peer's host name, as its own result file says it. */
export const HOSTILE_HOST = '<script>alert("lh")</script>';
export const SLOTS = 18;

function total(bitsPerSecond: number, seconds = 10): TotalResult {
  const bytes = Math.round((bitsPerSecond * seconds) / 8);
  return { bytes, sentBytes: bytes, seconds, bitsPerSecond, streamSumBitsPerSecond: bitsPerSecond * 1.01, completions: 100 };
}

function finding(direction: Diagnosis['direction'], verdict: Diagnosis['verdict'], c: Diagnosis['case']): Diagnosis {
  const numbers = { measuredBitsPerSecond: null, rttSeconds: 0.031, windowBytes: null, windowBitsPerSecond: null, cwndBytes: null };
  return {
    direction,
    verdict,
    case: c,
    sentence: `${verdict} (seeded)`,
    numbers: { ...numbers, cwndBitsPerSecond: null, retransSegments: 2, rwndLimitedShare: null, sndbufLimitedShare: null, windowScale: null },
  };
}

function capacity(payloadBitsPerSecond: number): CapacityInfo {
  return {
    direction: 'controllerToResponder',
    payloadBitsPerSecond,
    wireBitsPerSecond: null,
    wireConvention: 'seeded',
    method: 'tuned-streams',
    streams: 4,
    windowBytes: 4_000_000,
    plannedRttMs: 31,
    slowStartEndSeconds: 0.5,
    measuredFromSeconds: 0.5,
    measuredToSeconds: 3,
    phaseSeconds: 3.5,
    sliceRange: null,
    lowerBound: null,
  };
}

function run(n: number, startedMs: number, host: string, address: string, slot: number | null): LonghaulResult {
  const r = fakeResult((0xcafe0000 + n).toString(16).padStart(16, '0'), new Date(startedMs).toISOString(), 0);
  return {
    ...r,
    endedAt: new Date(startedMs + 10_000).toISOString(),
    controller: { ...r.controller, hostname: 'bench-pc' },
    responder: { ...r.responder, hostname: host, address },
    params: { ...r.params, seconds: 10 },
    ...(slot === null ? {} : { schedule: { name: 'lab', slot } }),
  };
}

/** Save the runs into `dir` (a results folder); the last slot starts 5 min before `now`. Returns how many `lab` runs. */
export async function seedScheduleLab(dir: string, now: Date): Promise<number> {
  const results: LonghaulResult[] = [];
  // A wobble that is the same every time the seed runs.
  const wobble = (i: number): number => 1 + 0.02 * Math.sin(i * 1.7);
  for (let i = 0; i < SLOTS; i++) {
    const at = now.getTime() - (5 + (SLOTS - 1 - i) * 20) * MIN;
    const narrowed = i >= SLOTS - 6;
    const lab = run(i * 3, at, 'lab-pc', '10.0.0.5:5211', 500 + i);
    const rate = (narrowed ? 40e6 : 94e6) * wobble(i);
    results.push({
      ...lab,
      total: total(rate),
      directions: { controllerToResponder: total(rate) },
      diagnosis: [
        narrowed
          ? finding('controllerToResponder', 'window-limited', 'window-limited/os-receive-buffer')
          : finding('controllerToResponder', 'link-limited', 'link-limited/rate-reached'),
      ],
      capacity: capacity(96e6 * wobble(i + 5)),
    });
    const branch = run(i * 3 + 1, at + 15_000, 'branch-pc', '192.168.7.20:5211', 500 + i);
    const [upRate, downRate] = [18e6 * wobble(i + 2), 45e6 * wobble(i + 3)];
    const [up, down] = [total(upRate), total(downRate)];
    results.push({
      ...branch,
      params: { ...branch.params, direction: 'bidir' },
      total: total(upRate + downRate),
      directions: { controllerToResponder: up, responderToController: down },
      diagnosis: [
        finding('controllerToResponder', 'link-limited', 'link-limited/rate-reached'),
        i % 6 === 5
          ? finding('responderToController', 'congestion-limited', 'congestion-limited/slow-start')
          : finding('responderToController', 'link-limited', 'link-limited/rate-reached'),
      ],
    });
    const hostile = run(i * 3 + 2, at + 30_000, HOSTILE_HOST, '10.0.0.66:5211', 500 + i);
    const gone = i === 9;
    const partial = i === 13;
    const rate3 = (partial ? 3e6 : 9e6) * wobble(i + 7);
    results.push({
      ...hostile,
      total: total(gone ? 0 : rate3),
      directions: gone ? {} : { controllerToResponder: total(rate3) },
      diagnosis: gone ? [] : [finding('controllerToResponder', 'cpu-limited', 'cpu-limited/process')],
      partial: gone || partial,
      partialReason: gone ? 'no answer from the peer' : partial ? 'the partner went away' : null,
      errors: gone || partial ? [{ code: gone ? 'LH_ERR_TIMEOUT' : 'LH_ERR_PEER_GONE', message: 'seeded' }] : [],
    });
  }
  const hand = run(90, now.getTime() - 50 * MIN, 'lab-pc', '10.0.0.5:5211', null);
  results.push({ ...hand, total: total(91e6), directions: { controllerToResponder: total(91e6) } });
  const voice = run(91, now.getTime() - 70 * MIN, 'sat-pc', '10.0.9.9:5211', null);
  results.push({ ...voice, total: total(12e6), directions: { controllerToResponder: total(12e6) }, schedule: { name: 'voice', slot: 7 } });
  const store = new HistoryStore(dir);
  for (const r of results) await store.save(r);
  return SLOTS * 3;
}
