/**
 * The what-if lines of the summary: the model in words, today's prediction
 * against what was measured, and the other cases (contract/what-if-result.ts).
 */
import type { LonghaulResult } from './result.js';
import { modelText, type WhatIfPrediction } from './what-if.js';
import { WHAT_IF_Y_CLAMP, whatIfOf, type WhatIfCurves, type WhatIfView } from './what-if-result.js';
import { formatRateShort, formatRtt, groupDigits } from './units.js';
import { capacityWhere, pathRateWhere, type Door } from './door.js';

function config(p: WhatIfPrediction): string {
  const window = p.windowBytes === null ? 'OS-default window' : `${groupDigits(p.windowBytes)}-byte window`;
  return `${p.streams} stream${p.streams === 1 ? '' : 's'} × ${window}, MSS ${groupDigits(p.mssBytes)} B`;
}

/**
 * A predicted rate above this multiple of the measured one, bounded only by the window over the RTT
 * while the path's rate is unknown, is no figure: on loopback a 2 µs RTT makes that "bound" tens of Tbit/s.
 */
const UNBOUNDED_ABOVE_MEASURED = 1.1;

/** Whether the model predicts nothing for `p`: no bound at all, or only the window over a tiny RTT, far above the measurement. */
function unbounded(p: WhatIfPrediction, w: WhatIfView): boolean {
  const measured = w.measuredBitsPerSecond;
  return (
    p.bitsPerSecond === null ||
    (p.bound === 'window' && w.path.rateBitsPerSec === null && measured !== null && p.bitsPerSecond > UNBOUNDED_ABOVE_MEASURED * measured)
  );
}

function rate(p: WhatIfPrediction, w: WhatIfView, door: Door): string {
  if (p.bitsPerSecond === null) return "unknown: nothing in the model bounds it (the path's rate, a window and a loss rate are all missing)";
  const measured = w.measuredBitsPerSecond;
  if (measured !== null && unbounded(p, w)) {
    const missing =
      w.rateLeftOut !== null ? 'the stated path rate was left out (the run measured more)' : `the path's rate is missing (${pathRateWhere(door)})`;
    return `unknown above the measured ${formatRateShort(measured)}: only the window over the RTT bounds it, and ${missing}`;
  }
  const ramp = p.rampRoundTrips > 0 ? `, reached after a slow-start ramp of ${p.rampRoundTrips} round trips (${p.rampSeconds.toFixed(1)} s)` : '';
  return `about ${formatRateShort(p.bitsPerSecond)} (bound: ${p.bound})${ramp}`;
}

/** Two decimals, or two significant digits below 0.1 (a loopback run is 0.0014 of its window's bound, not "0.00"). */
function ratioText(x: number): string {
  return x >= 0.1 || x === 0 ? x.toFixed(2) : x.toPrecision(2);
}

/** Whether the model bounds anything near the measurement, in today's case or another (false: it predicts nothing). */
export function whatIfPredicts(r: LonghaulResult): boolean {
  const w = whatIfOf(r);
  if (!w) return false;
  return !(w.measuredBitsPerSecond !== null && unbounded(w.today, w) && w.cases.every((c) => unbounded(c.prediction, w)));
}

/**
 * The lines (empty when the result has no RTT to model with). When the model bounds nothing above the
 * measurement in any case (no path rate, and the window over the RTT far above what was measured), one
 * line says so and what would make it predict, instead of a "today" and cases that all say "unknown".
 */
export function formatWhatIf(r: LonghaulResult, door: Door): string[] {
  const w = whatIfOf(r);
  if (!w) return [];
  if (w.measuredBitsPerSecond !== null && !whatIfPredicts(r)) {
    const missing =
      w.rateLeftOut !== null
        ? `the path rate ${formatRateShort(w.rateLeftOut)} was left out (the run measured more, so it is not this path's)`
        : `the path's rate is unknown (${pathRateWhere(door)})`;
    return [
      `What-if: nothing to predict above the measured ${formatRateShort(w.measuredBitsPerSecond)}: ${missing}, and the window over the ${formatRtt(w.path.rttSeconds)} RTT bounds nothing near it.`,
    ];
  }
  const rateText =
    w.rateLeftOut !== null
      ? `path rate ${formatRateShort(w.rateLeftOut)} left out: the run measured more, so it is not this path's`
      : w.path.rateBitsPerSec === null
        ? 'path rate unknown'
        : `path rate ${formatRateShort(w.path.rateBitsPerSec)} (${w.rateSource === 'given' ? 'given by the user' : w.rateSource === 'measured' ? `measured by Longhaul's tuned run: ${capacityWhere(door)}` : "the emulated link's"})`;
  const lossText =
    w.path.lossRatio === null
      ? 'no loss term'
      : `loss ${(w.path.lossRatio * 100).toPrecision(2)} % (${w.lossSource === 'retransmissions' ? 'retransmitted segments / segments sent' : "the emulated link's"})`;
  const lines = [
    `What-if (payload bit/s, wall-clock; model: ${modelText(w.path, w.rateLeftOut === null ? door : null)}; RTT ${formatRtt(w.path.rttSeconds)} (${w.rttSource === 'minimum' ? "the path's minimum RTT: what a window must cover" : 'the RTT the limiter uses'}), ${rateText}, ${lossText}):`,
  ];
  const measured = w.measuredBitsPerSecond;
  const todayText = rate(w.today, w, door);
  const ratio =
    measured !== null && w.today.bitsPerSecond && !todayText.startsWith('unknown') ? ` (measured / model ${ratioText(measured / w.today.bitsPerSecond)})` : '';
  lines.push(`  today, ${config(w.today)}: model ${todayText}; measured ${measured === null ? 'unknown' : formatRateShort(measured)}${ratio}`);
  // A case the model cannot bound predicts nothing: it is left out rather than printed as "unknown above …".
  const cases = w.cases.filter((c) => !unbounded(c.prediction, w));
  for (const c of cases) lines.push(`  ${c.label}, ${config(c.prediction)}: ${rate(c.prediction, w, door)}`);
  if (cases.length < w.cases.length)
    lines.push(
      `  (${w.cases.length - cases.length} other case${w.cases.length - cases.length === 1 ? '' : 's'} left out: without the path's rate the model bounds nothing above the measurement)`,
    );
  return lines;
}

/** The what-if chart's note when its y axis cuts the model's lines (what-if-result.ts, WHAT_IF_Y_CLAMP); null when it does not. */
export function whatIfAxisNote(c: WhatIfCurves): string | null {
  if (!c.yAxis) return null;
  return `The chart stops at ${formatRateShort(c.yAxis.max)} (${WHAT_IF_Y_CLAMP} × the measured rate, rounded up); the model's lines go on above it, to ${formatRateShort(c.yAxis.top)}, because with no path rate only the window over the RTT bounds them.`;
}
