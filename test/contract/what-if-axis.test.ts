/**
 * The what-if chart's y axis: with no path rate on a fast path the model's lines reach hundreds of
 * thousands of Gbit/s and the measured run lies flat on the axis, so the axis stops at
 * WHAT_IF_Y_CLAMP × the measured rate and says so, in the app and in the HTML report. With a rate
 * the plateau is the point and nothing is cut.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { whatIfCurves, whatIfOf } from '../../electron/contract/what-if-result.js';
import { formatWhatIf, whatIfAxisNote } from '../../electron/contract/what-if-text.js';
import { whatIfChart } from '../../electron/report/html-charts.js';
import { makeResult, seedDiagnosis } from '../helpers/result-fixtures.js';

/** A run of `bitsPerSecond` over 3 s, diagnosed with this RTT and window, with an optional stated path rate. */
function run(bitsPerSecond: number, rttSeconds: number, windowBytes: number, pathRate: number | null): LonghaulResult {
  const r = makeResult({ streams: [{ bytes: (bitsPerSecond / 8) * 3, seconds: 3, completions: 100 }] });
  if (pathRate !== null) r.pathRate = { bitsPerSecond: pathRate, source: 'given' };
  r.diagnosis = [seedDiagnosis({ numbers: { measuredBitsPerSecond: bitsPerSecond, rttSeconds, windowBytes } })];
  return r;
}

/** The y values of the SVG's horizontal grid labels, in Mbit/s. */
function yTicks(svg: string): number[] {
  return [...svg.matchAll(/text-anchor="end" class="k">([\d.]+)</g)].map((m) => Number(m[1]));
}

describe('what-if chart axis', () => {
  it("loopback without a rate (19 Gbit/s, 30 µs, 4 MB): cut at 5 × the measured rate, and said with the lines' own top", () => {
    const r = run(19e9, 0.00003, 4_000_000, null);
    const c = whatIfCurves(whatIfOf(r)!);
    assert.ok(c.yAxis, 'cut');
    assert.equal(c.yAxis.max, 100e9, '5 × 19 Gbit/s = 95, rounded up to a readable top');
    assert.ok(c.yAxis.top > 100 * 19e9, `the lines' top ${c.yAxis.top}`);
    const note = whatIfAxisNote(c)!;
    assert.match(note, /stops at 100 Gbit\/s \(5 × the measured rate, rounded up\)/);
    assert.match(note, /no path rate/);
    const html = whatIfChart(r);
    assert.ok(html.includes(note), 'the report says it under the chart');
    assert.match(html, /clip-path="url\(#lh-plot\)"/, 'the lines are cut at the plot, not drawn over the title');
    // No figure bounded only by window ÷ a loopback RTT: one line says nothing is predicted and which bound is missing, with no ratio to it.
    const text = formatWhatIf(r, 'terminal').join('\n');
    assert.match(
      text,
      /^What-if: nothing to predict above the measured 19 Gbit\/s: the path's rate is unknown \(give it with --path-rate, or measure it with --capacity\)/,
    );
    assert.doesNotMatch(text, /measured \/ model/);
    const ticks = yTicks(html);
    assert.ok(ticks.length >= 3 && Math.max(...ticks) <= 100_000, `ticks ${ticks.join(', ')} Mbit/s`);
  });

  it('the seed (53 kbit/s over 1.3 s against a stated 4 Mbit/s): the plateau 75 × higher is kept', () => {
    const r = run(53_000, 1.3, 8688, 4e6);
    const c = whatIfCurves(whatIfOf(r)!);
    assert.equal(c.yAxis, null);
    assert.equal(whatIfAxisNote(c), null);
    const html = whatIfChart(r);
    assert.doesNotMatch(html, /clip-path|data-what-if-axis/);
    assert.ok(Math.max(...yTicks(html)) >= 4, 'the axis reaches the 4 Mbit/s plateau');
  });

  it("a WAN run without a rate (8,760 B over 200 ms): cut, and the 1-stream line still climbs through the chart past today's window", () => {
    const r = run(350_000, 0.2, 8760, null);
    const c = whatIfCurves(whatIfOf(r)!);
    assert.equal(c.yAxis?.max, 2e6, '5 × 350 kbit/s = 1.75 Mbit/s, rounded up');
    const shown = c.lines[0]!.points.filter(([x, y]) => x > 8760 && y <= c.yAxis!.max);
    assert.ok(shown.length >= 2, `points of the 1-stream line inside the axis past 8,760 B: ${JSON.stringify(shown)}`);
    // Within 5 × the run the window's figure is the path's own limit: it is printed, with its ratio.
    assert.match(formatWhatIf(r, 'terminal').join('\n'), /today, [^\n]*model about [\d.]+ kbit\/s \(bound: window\)[^\n]*measured \/ model/);
  });
});
