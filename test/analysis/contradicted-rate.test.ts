/**
 * A stated rate the measurement contradicts (payload above the stated wire rate: a --path-rate typed wrong)
 * is left out of the verdict, the what-if and the advice, and each says so rather than sizing windows from it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { whatIfOf } from '../../electron/contract/what-if-result.js';
import { formatWhatIf } from '../../electron/contract/what-if-text.js';
import { adviseResult } from '../../electron/analysis/advice/advise.js';
import { diagnoseResult } from '../../electron/analysis/diagnosis.js';
import { type LimiterInputs } from '../../electron/analysis/limiter-inputs.js';
import { diagnoseLimiter } from '../../electron/analysis/limiter.js';
import { makeResult } from '../helpers/result-fixtures.js';

const LOOPBACK: LimiterInputs = {
  measuredBitsPerSecond: 19e9,
  rttSeconds: 0.00003,
  windowBytes: 4_000_000,
  windowScale: 7,
  cwndBytes: 2_000_000,
  retransSegments: 0,
  busySeconds: 3,
  rwndLimitedSeconds: 0,
  sndbufLimitedSeconds: 0,
  transferSeconds: 3,
  linkBitsPerSecond: null,
};

describe('diagnoseLimiter with a stated link rate', () => {
  it("19 Gbit/s measured against a stated 1 Gbit/s: the verdict without the rate, and why, never 'of the link's 1 Gbit/s'", () => {
    const without = diagnoseLimiter(LOOPBACK);
    const d = diagnoseLimiter({ ...LOOPBACK, linkBitsPerSecond: 1e9 });
    assert.equal(d.verdict, without.verdict);
    assert.ok(d.sentence.startsWith(without.sentence), d.sentence);
    assert.match(d.sentence, /stated rate, 1(\.0)? Gbit\/s, is below the 19 Gbit\/s measured, so it is not this path's rate/);
    assert.doesNotMatch(d.sentence, /of the link's|the link is the limit/);
  });
  it('at and just under the stated rate: still link-limited', () => {
    for (const measured of [0.85e9, 0.95e9, 1.05e9]) {
      const d = diagnoseLimiter({ ...LOOPBACK, measuredBitsPerSecond: measured, linkBitsPerSecond: 1e9 });
      assert.equal(d.verdict, 'link-limited', `${measured}: ${d.sentence}`);
      assert.doesNotMatch(d.sentence, /stated rate/);
    }
  });
});

/** A 3 s loopback-fast run (19 Gbit/s) with a stated path rate, diagnosed from its own numbers. */
function loopbackRun(pathRate: number): LonghaulResult {
  const r = makeResult({ streams: [{ bytes: (19e9 / 8) * 3, seconds: 3, completions: 1000 }] });
  r.pathRate = { bitsPerSecond: pathRate, source: 'given' };
  const d = diagnoseLimiter({ ...LOOPBACK, linkBitsPerSecond: pathRate });
  r.diagnosis = [{ direction: 'controllerToResponder', ...d }];
  return r;
}

describe('a result with a contradicted --path-rate', () => {
  it('the what-if leaves the rate out and says why; with a plausible rate it keeps it', () => {
    const w = whatIfOf(loopbackRun(1e9))!;
    assert.equal(w.path.rateBitsPerSec, null);
    assert.equal(w.rateLeftOut, 1e9);
    const text = formatWhatIf(loopbackRun(1e9), 'terminal').join('\n');
    assert.match(text, /the path rate 1(\.0)? Gbit\/s was left out \(the run measured more/);
    assert.doesNotMatch(text, /give it with/, 'it was given: the text does not ask for it');
    assert.ok(!w.cases.some((c) => c.label === 'the window that fills the path'), 'no window sized from it');
    const kept = whatIfOf(loopbackRun(20e9))!;
    assert.equal(kept.path.rateBitsPerSec, 20e9);
    assert.equal(kept.rateLeftOut, null);
  });
  it('no what-if figure bounded only by window ÷ a loopback RTT: one line says nothing is predicted, and why', () => {
    const lines = formatWhatIf(loopbackRun(1e9), 'terminal');
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.doesNotMatch(lines[0]!, /Tbit\/s|today|unknown above|4 × today's streams/);
    assert.match(
      lines[0]!,
      /^What-if: nothing to predict above the measured .*: the path rate 1(\.0)? Gbit\/s was left out .*the window over the .* RTT bounds nothing near it\.$/,
    );
  });
  it('the advice sizes no window from it', () => {
    for (const a of adviseResult(loopbackRun(1e9), {})) assert.doesNotMatch(`${a.neededValue}`, /at least [\d,]+ bytes/, JSON.stringify(a));
  });
  it('diagnoseResult gives the same verdict as the limiter', () => {
    const r = loopbackRun(1e9);
    assert.ok(diagnoseResult(r, 1e9).every((d) => !/of the link's/.test(d.sentence)));
  });
});
