/** The detail of small segments: the MSS as the limit, or as a possibility beside the path's or the CPU's verdict. */
import type { FindingData } from './words.js';
import { mssWhere, type Door } from '../door.js';
import { formatRateShort, groupDigits } from '../units.js';
import { figure } from './words.js';

interface MssWords {
  sendMss: number;
  pmtu: number;
  pathMss: number;
  requested: number | null;
}

function mssOf(d: FindingData): MssWords | null {
  const sendMss = figure(d, 'mss');
  const pathMss = figure(d, 'pathMss');
  const p = d.facts?.mssPath;
  if (sendMss === null || pathMss === null || !p) return null;
  return { sendMss, pmtu: p.pmtuBytes, pathMss, requested: p.requestedBytes };
}

/** The words added to a path or CPU verdict when segments were small: a possibility to check, not a finding. */
export function smallSegmentsNote(d: FindingData, door: Door): string {
  const f = mssOf(d);
  if (!f) return '';
  const where = mssWhere(door);
  const asked = f.requested !== null ? ` (asked for ${where.asked})` : '';
  return (
    ` Segments were small: at most ${groupDigits(f.sendMss)} B${asked} where the path MTU of ${groupDigits(f.pmtu)} B allows about ${groupDigits(f.pathMss)} B; ` +
    `if the path itself is faster than this, per-segment costs may be why: ${f.requested !== null ? `run again ${where.without}` : `run ${where.larger}`} to compare.`
  );
}

/** mss-limited/small-segments. */
export function mssLimitedText(d: FindingData, door: Door): string {
  const f = mssOf(d);
  const where = mssWhere(door);
  const measured = formatRateShort(d.numbers.measuredBitsPerSecond ?? 0);
  if (!f) return `Segments were small; measured ${measured}: the small MSS is the likely limit.`;
  const factor = f.pathMss / f.sendMss;
  const asked = f.requested !== null ? ` (${groupDigits(f.requested)} B was requested ${where.asked})` : '';
  const check =
    f.requested !== null
      ? `Run again ${where.without} to see what the path carries with full-size segments.`
      : `Something on the path or a host clamps the MSS (a VPN, a router's MSS clamping, an old stack): find it, or run ${where.larger} to compare.`;
  const head =
    `Segments carried at most ${groupDigits(f.sendMss)} B${asked} where the path MTU of ${groupDigits(f.pmtu)} B allows about ${groupDigits(f.pathMss)} B: ` +
    `each byte cost ${factor.toFixed(1)}× as many segments (headers, ACKs, wake-ups)`;
  const cwnd = d.numbers.cwndBytes;
  const cwndRate = d.numbers.cwndBitsPerSecond;
  if (d.facts?.mssPath?.afterVerdict === 'congestion-limited' && cwnd !== null && cwndRate !== null) {
    const segments = Math.round(cwnd / f.sendMss);
    return (
      `${head}, and the congestion window, which grows by segments, held ${groupDigits(segments)} of them (${groupDigits(cwnd)} B, at most ${formatRateShort(cwndRate)}); ` +
      `measured ${measured}: the small MSS is the limit. ${check}`
    );
  }
  return `${head}, and the window grew in segments of that size; measured ${measured} with no window limit in sight: the small MSS is the likely limit. ${check}`;
}
