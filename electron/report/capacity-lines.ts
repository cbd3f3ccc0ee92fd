/**
 * The path's measured capacity in the summary and the HTML report: the
 * figure with how it was measured, and the comparison that matters (this
 * run's settings against what the path carried when Longhaul tuned the run).
 */
import { capacityComparisonText, capacityFigureText, capacityMethodText } from '../contract/capacity.js';
import type { LonghaulResult } from '../contract/result.js';

/** What this run carried in the measured direction, bit/s (the verdict's figure, else the direction's total); null: unknown. */
export function gotInMeasuredDirection(r: LonghaulResult): number | null {
  const c = r.capacity;
  if (!c) return null;
  const d = r.diagnosis?.find((x) => x.direction === c.direction);
  return d?.numbers.measuredBitsPerSecond ?? r.directions[c.direction]?.bitsPerSecond ?? r.total.bitsPerSecond;
}

/** `Path capacity (measured by Longhaul): …` lines; none when the result carries no capacity. */
export function capacityLines(r: LonghaulResult): string[] {
  const c = r.capacity;
  if (!c) return [];
  const lines = [
    `Path capacity (measured by Longhaul, ${c.direction === 'controllerToResponder' ? 'controller -> responder' : 'responder -> controller'}): ${capacityFigureText(c)}`,
  ];
  lines.push(`  how: ${capacityMethodText(c)}`);
  if (c.wireBitsPerSecond !== null || c.payloadBitsPerSecond !== null) lines.push(`  wire rate: ${c.wireConvention}`);
  lines.push(`  ${capacityComparisonText(c, gotInMeasuredDirection(r))}`);
  if (r.pathRate?.source === 'given') lines.push('  (the verdict and advice use the rate given with --path-rate)');
  else if (r.pathRate?.source === 'measured') lines.push('  (the verdict, the bandwidth-delay product and the advice use this measured rate)');
  return lines;
}
