/**
 * The tuned run's plan and figure: windows sized from the user's run's RTT,
 * the wire rate only where segments fill the path MTU, floors named, and the
 * measured rate taken into the verdict only when it is the path's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../../electron/contract/result.js';
import { capacityInfo, planCapacity, plannedRtt, wireRate } from '../../../electron/engine/session/capacity-plan.js';
import { attachCapacity } from '../../../electron/engine/session/capacity-run.js';
import { capacityComparisonText, capacityLines } from '../../../electron/contract/capacity.js';
import { makeResult, seedDiagnosis } from '../../helpers/result-fixtures.js';
import { summaryRows } from '../../../electron/report/csv-report.js';

const sampleResult = (): LonghaulResult => makeResult({ streams: [{ bytes: 1_000_000, seconds: 1, completions: 10 }] });

function withRtt(rttS: number | null): LonghaulResult {
  const r = sampleResult();
  r.diagnosis = [seedDiagnosis({ numbers: { rttSeconds: rttS, minRttSeconds: rttS, measuredBitsPerSecond: 5e6 } })];
  return r;
}

const DONE = { state: 'done' as const, slowStartEndS: 1, fromS: 1, toS: 3, bitsPerSecond: 9.6e6, sliceRange: { min: 9e6, max: 10e6 } };

describe('capacity plan', () => {
  it('sizes the windows from the RTT, within 512 KiB and 16 MiB, and keeps the direction', () => {
    const short = planCapacity(withRtt(0.04));
    assert.equal(short.params.streams, 4);
    assert.equal(short.params.windowBytes, Math.round((1e9 / 8) * (0.04 / 4)));
    assert.equal(planCapacity(withRtt(0.0001)).params.windowBytes, 512 * 1024);
    assert.equal(planCapacity(withRtt(1.3)).params.windowBytes, 16 * 1024 * 1024);
    const rev = withRtt(0.04);
    rev.params = { ...rev.params, direction: 'reverse', omitSeconds: 2, mssBytes: 536, bitrateBitsPerSec: 1e6 };
    const p = planCapacity(rev);
    assert.equal(p.direction, 'responderToController');
    assert.equal(p.params.omitSeconds, undefined, 'no omit, no MSS, no pacing in the tuned run');
    assert.equal(p.params.mssBytes, undefined);
    assert.equal(p.params.bitrateBitsPerSec, undefined);
  });

  it('without an RTT: the longest phase, and plannedRtt says null', () => {
    const r = withRtt(null);
    assert.equal(plannedRtt(r), null);
    assert.equal(planCapacity(r).params.seconds, 30);
  });

  it('the wire rate is payload × MTU ÷ MSS only where segments fill the MTU', () => {
    const tuned = sampleResult();
    tuned.mss = {
      requestedBytes: null,
      applied: true,
      note: '',
      sendMssBytes: { min: 1448, max: 1448 },
      advertisedMssBytes: null,
      pmtuBytes: { min: 1500, max: 1500 },
      refusedBy: [],
    };
    assert.ok(Math.abs((wireRate(1448e3, tuned).wire ?? 0) - 1500e3) < 1e-6);
    tuned.mss = { ...tuned.mss, sendMssBytes: { min: 32741, max: 32741 }, pmtuBytes: { min: 65535, max: 65535 } };
    const loop = wireRate(1e9, tuned);
    assert.equal(loop.wire, null, 'loopback segments do not fill its MTU');
    assert.match(loop.wireConvention, /^unknown: segments of 32741 bytes/);
    assert.match(wireRate(1e6, null).wireConvention, /^unknown: the MSS/);
  });

  it('a tuned run whose own verdict was a CPU is a floor, and no path rate is taken from it', () => {
    const plan = planCapacity(withRtt(0.04));
    const tuned = sampleResult();
    tuned.diagnosis = [seedDiagnosis({ verdict: 'cpu-limited' })];
    const info = capacityInfo(plan, DONE, [], tuned, 5, null);
    assert.equal(info.lowerBound, 'cpu');
    const r = withRtt(0.04);
    attachCapacity(r, info, {});
    assert.equal(r.capacity, info);
    assert.equal(r.pathRate, undefined, 'a floor is no path rate');
    assert.match(capacityComparisonText(info, 5e6), /says nothing of the settings/);
  });

  it("the path's figure becomes the measured path rate, and the summary lines compare the run with it", () => {
    const plan = planCapacity(withRtt(0.04));
    const info = capacityInfo(plan, DONE, [{ t: 1, bitsPerSecond: 9.6e6 }], null, 6.2, null);
    assert.equal(info.lowerBound, null);
    const r = withRtt(0.04);
    delete r.pathRate;
    attachCapacity(r, info, {});
    assert.deepEqual(r.pathRate, { bitsPerSecond: 9.6e6, source: 'measured' });
    const lines = capacityLines(r).join('\n');
    assert.match(lines, /Path capacity \(measured by Longhaul, controller -> responder\): 9\.60 Mbit\/s of payload/);
    assert.match(lines, /this measured rate/);
    const row = summaryRows(r)[0];
    assert.equal(row?.capacity_payload_mbit_per_s, '9.600', 'the CSV summary rows carry the capacity');
    assert.equal(row?.capacity_lower_bound, '');
    const given = withRtt(0.04);
    given.pathRate = { bitsPerSecond: 4e6, source: 'given' };
    attachCapacity(given, info, {});
    assert.equal(given.pathRate.source, 'given', "a rate the user gave stays the verdict's");
  });

  it('no figure: the failure in words, and the summary says not measured', () => {
    const plan = planCapacity(withRtt(0.04));
    const none = { state: 'slow-start' as const, slowStartEndS: null, fromS: null, toS: null, bitsPerSecond: null, sliceRange: null };
    const info = capacityInfo(plan, none, [], null, 1, 'LH_ERR_TLS: refused');
    assert.equal(info.payloadBitsPerSecond, null);
    assert.equal(info.failure, 'LH_ERR_TLS: refused');
    const r = withRtt(0.04);
    attachCapacity(r, info, {});
    assert.match(capacityLines(r)[0] ?? '', /not measured: LH_ERR_TLS: refused/);
  });
});
