/**
 * The path's capacity as Longhaul measured it (`--capacity`, the Test screen's
 * "Measure the path"): after the user's run, a short run Longhaul tunes itself
 * (several streams, windows it sets on both ends before the handshake) carries
 * as much as the path takes; its receiver's rate once slow start is over is the
 * bottleneck's payload rate. The wire rate adds the IP and TCP headers of each
 * segment (the path MTU over the MSS); link-layer framing is not counted, as
 * no OS tells it. One sentence rule for the summary, the HTML report and the UI.
 */
import type { CapacityInfo, CapacityProgress } from './capacity-info.js';
import type { LonghaulResult } from './result.js';

import { formatRate } from './units.js';
import { pathDirectionLabel } from './direction.js';

/** The progress line of the tuned phase: "measuring the path: 4 streams × 4,194,304-byte windows, at most 22 s…" or its figure. */
export function capacityProgressText(p: CapacityProgress): string {
  if (p.state === 'done') return `path measured: ${capacityFigureText(p.info)}${capacityBoundText(p.info)}`;
  return `measuring the path: Longhaul's own run, ${p.streams} streams × ${p.windowBytes.toLocaleString('en-US')}-byte windows, at most ${Math.round(p.seconds)} s…`;
}

/** "the path carried 9.57 Mbit/s of payload (10.0 Mbit/s as IP packets)", or why not: the summary's and the UI's words. */
function capacityFigureText(c: CapacityInfo): string {
  if (c.payloadBitsPerSecond === null) return `not measured: ${c.failure ?? 'the tuned run gave no figure'}`;
  const floor = c.lowerBound ? 'at least ' : '';
  const wire = c.wireBitsPerSecond !== null ? ` (${floor}${formatRate(c.wireBitsPerSecond)} as IP packets)` : '';
  return `${floor}${formatRate(c.payloadBitsPerSecond)} of payload${wire}`;
}

/** Why a floor is a floor, in words; empty when the figure is the path's. */
function capacityBoundText(c: CapacityInfo): string {
  if (c.lowerBound === 'windows') return ` (a floor: the tuned run's own windows, ${c.streams} × ${c.windowBytes.toLocaleString('en-US')} bytes, were full)`;
  if (c.lowerBound === 'slow-start') return ' (a floor: the tuned run was still speeding up when its time ran out)';
  if (c.lowerBound === 'cpu') return " (a floor: a PC's CPU was the tuned run's limit, not the path)";
  if (c.lowerBound === 'emulator') return " (a floor: the link emulator on this PC fell behind; this is the emulator's rate, not the path's)";
  if (c.lowerBound === 'receiver') return ' (a floor: the receiving end did not read fast enough in the tuned run)';
  if (c.lowerBound === 'loss') return ' (a floor: packet loss held the tuned run too; a lossy path carries less to TCP than its rate)';
  return '';
}

/** How it was measured, in one line: "4 streams × 4,194,304-byte windows set by Longhaul, slow start over at 2.1 s, measured 2.1–5.1 s; 6.3 s in all". */
function capacityMethodText(c: CapacityInfo): string {
  const span =
    c.measuredFromSeconds !== null && c.measuredToSeconds !== null
      ? `, slow start over at ${(c.slowStartEndSeconds ?? c.measuredFromSeconds).toFixed(1)} s, measured ${c.measuredFromSeconds.toFixed(1)}–${c.measuredToSeconds.toFixed(1)} s`
      : '';
  return `${c.streams} streams × ${c.windowBytes.toLocaleString('en-US')}-byte windows set by Longhaul on both ends${span}; ${c.phaseSeconds.toFixed(1)} s in all`;
}

/**
 * The comparison that matters: "This PC's settings got 3.10 Mbit/s; tuned by Longhaul the path carried
 * 9.57 Mbit/s of payload: the settings left 68 % of the path unused."
 */
export function capacityComparisonText(c: CapacityInfo, gotBitsPerSecond: number | null): string {
  const carried = `tuned by Longhaul the path carried ${capacityFigureText(c)}${capacityBoundText(c)}`;
  if (gotBitsPerSecond === null || c.payloadBitsPerSecond === null)
    return `This run's settings got ${gotBitsPerSecond === null ? 'an unknown rate' : formatRate(gotBitsPerSecond)}; ${carried}.`;
  const share = gotBitsPerSecond / c.payloadBitsPerSecond;
  if (c.lowerBound && c.lowerBound !== 'windows' && c.lowerBound !== 'slow-start')
    return `This run's settings got ${formatRate(gotBitsPerSecond)}; ${carried}: the path's own rate was not reached, so the difference says nothing of the settings.`;
  const diff =
    share >= 0.9
      ? 'the settings used the path (within 10 % of what it carried)'
      : `the settings left ${Math.round((1 - share) * 100)} % of the path unused (${(c.payloadBitsPerSecond / Math.max(gotBitsPerSecond, 1)).toFixed(1)}× more was there)`;
  return `This run's settings got ${formatRate(gotBitsPerSecond)}; ${carried}: ${diff}.`;
}

/** What this run carried in the measured direction, bit/s (the verdict's figure, else the direction's total); null: unknown. */
function gotInMeasuredDirection(r: LonghaulResult): number | null {
  const c = r.capacity;
  if (!c) return null;
  const d = r.diagnosis?.find((x) => x.direction === c.direction);
  return d?.numbers.measuredBitsPerSecond ?? r.directions[c.direction]?.bitsPerSecond ?? r.total.bitsPerSecond;
}

/** `Path capacity (measured by Longhaul): …` lines; none when the result carries no capacity. */
export function capacityLines(r: LonghaulResult): string[] {
  const c = r.capacity;
  if (!c) return [];
  const lines = [`Path capacity (measured by Longhaul, ${pathDirectionLabel(c.direction, true)}): ${capacityFigureText(c)}`];
  lines.push(`  how: ${capacityMethodText(c)}`);
  if (c.wireBitsPerSecond !== null || c.payloadBitsPerSecond !== null) lines.push(`  wire rate: ${c.wireConvention}`);
  lines.push(`  ${capacityComparisonText(c, gotInMeasuredDirection(r))}`);
  if (r.pathRate?.source === 'given') lines.push('  (the verdict and advice use the rate given with --path-rate)');
  else if (r.pathRate?.source === 'measured') lines.push('  (the verdict, the bandwidth-delay product and the advice use this measured rate)');
  return lines;
}
