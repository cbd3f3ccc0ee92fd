/**
 * The what-if lines of the summary: the model in words, today's prediction
 * against what was measured, and the other cases (contract/what-if-result.ts).
 */
import type { LonghaulResult } from './result.js';
import { modelText, type WhatIfPrediction } from './what-if.js';
import { whatIfOf } from './what-if-result.js';
import { formatRateShort, formatRtt, groupDigits } from './units.js';
import { PATH_RATE_WHERE } from './limits.js';

function config(p: WhatIfPrediction): string {
  const window = p.windowBytes === null ? 'OS-default window' : `${groupDigits(p.windowBytes)}-byte window`;
  return `${p.streams} stream${p.streams === 1 ? '' : 's'} × ${window}, MSS ${groupDigits(p.mssBytes)} B`;
}

function rate(p: WhatIfPrediction): string {
  if (p.bitsPerSecond === null) return 'unknown (nothing in the model bounds it)';
  const ramp = p.rampRoundTrips > 0 ? `, reached after a slow-start ramp of ${p.rampRoundTrips} round trips (${p.rampSeconds.toFixed(1)} s)` : '';
  return `about ${formatRateShort(p.bitsPerSecond)} (bound: ${p.bound})${ramp}`;
}

/** The lines (empty when the result has no RTT to model with). */
export function formatWhatIf(r: LonghaulResult): string[] {
  const w = whatIfOf(r);
  if (!w) return [];
  const rateText =
    w.rateLeftOut !== null
      ? `path rate ${formatRateShort(w.rateLeftOut)} left out: the run measured more, so it is not this path's`
      : w.path.rateBitsPerSec === null
        ? 'path rate unknown'
        : `path rate ${formatRateShort(w.path.rateBitsPerSec)} (${w.rateSource === 'given' ? `given by the user: ${PATH_RATE_WHERE}` : "the emulated link's"})`;
  const lossText =
    w.path.lossRatio === null
      ? 'no loss term'
      : `loss ${(w.path.lossRatio * 100).toPrecision(2)} % (${w.lossSource === 'retransmissions' ? 'retransmitted segments / segments sent' : "the emulated link's"})`;
  const lines = [
    `What-if (payload bit/s, wall-clock; model: ${modelText(w.path, w.rateLeftOut === null)}; RTT ${formatRtt(w.path.rttSeconds)} (${w.rttSource === 'minimum' ? "the path's minimum RTT: what a window must cover" : 'the RTT the limiter uses'}), ${rateText}, ${lossText}):`,
  ];
  const measured = w.measuredBitsPerSecond;
  const ratio = measured !== null && w.today.bitsPerSecond ? ` (measured / model ${(measured / w.today.bitsPerSecond).toFixed(2)})` : '';
  lines.push(`  today, ${config(w.today)}: model ${rate(w.today)}; measured ${measured === null ? 'unknown' : formatRateShort(measured)}${ratio}`);
  for (const c of w.cases) lines.push(`  ${c.label}, ${config(c.prediction)}: ${rate(c.prediction)}`);
  return lines;
}
