/**
 * The summary's round-trip and bandwidth-delay lines, one RTT named per line and the same one used
 * where the line says so. The BDP is the PATH's: its rate (stated with --path-rate, or the emulated
 * link's) × its minimum RTT (the path without queues: what a window must cover). The measured rate is
 * never used: in a window-limited run it is today's window again. Beside it, what today's window
 * carries at that RTT, so the two can be compared.
 */
import { pathRateWhere } from '../contract/door.js';
import { bdpBytes, MAX_SCALED_WINDOW, rateContradicted, splitWindow } from '../contract/path-math.js';
import type { LonghaulResult } from '../contract/result.js';
import { formatRate, formatRtt, groupDigits } from '../contract/units.js';

/** Above this multiple of the measured rate, window ÷ RTT is given in words, not as a figure. */
const WINDOW_FIGURE_ABOVE_MEASURED = 10;

/** `Round-trip time: …` with which RTT is which, and who uses it. */
export function rttLine(r: LonghaulResult, given: number | null, median: number | null): string {
  if (given !== null) return `Round-trip time: ${formatRtt(given)}`;
  const link = r.link?.settings ?? null;
  if (link && link.delayMs > 0) return `Round-trip time: ${formatRtt((2 * link.delayMs) / 1000)} (the emulated link's; the local hop under it is faster)`;
  if (median === null) return 'Round-trip time: unknown (not measured in this run)';
  const min = r.diagnosis?.find((d) => d.numbers.minRttSeconds)?.numbers.minRttSeconds ?? null;
  const head = `Round-trip time: ${formatRtt(median)} (the sending kernel's smoothed RTT while data was in flight, median over readings and streams: the RTT the limiter uses`;
  return min === null
    ? `${head}; no minimum RTT was reported, so the bandwidth-delay product and the what-if use it too)`
    : `${head}); minimum ${formatRtt(min)} (the path without queues: what a window must cover, used by the bandwidth-delay product and the what-if)`;
}

/** `Bandwidth-delay product …`: the path's, or unknown with what is missing; and what today's window carries. */
export function bdpLine(r: LonghaulResult, given: number | null, median: number | null): string {
  const link = r.link?.settings ?? null;
  const d = r.diagnosis?.find((x) => x.numbers.rttSeconds !== null) ?? null;
  const min = d?.numbers.minRttSeconds ?? null;
  const rtt = given ?? (link && link.delayMs > 0 ? (2 * link.delayMs) / 1000 : null) ?? min ?? median;
  const stated = r.pathRate?.bitsPerSecond ?? link?.rateBitsPerSec ?? null;
  const measured = d?.numbers.measuredBitsPerSecond ?? r.total.bitsPerSecond;
  const rate = rateContradicted(stated, measured) ? null : stated;
  const which = r.pathRate ? (r.pathRate.source === 'measured' ? 'the path rate Longhaul measured' : 'the stated path rate') : 'the emulated link';
  const sender = d?.direction === 'responderToController' ? 'responder' : 'controller';
  const streams = Math.max(1, r.streams.filter((s) => s.sender === sender).length);
  const window = d?.numbers.windowBytes ?? null;
  const carries = window !== null && rtt ? (window * 8) / rtt : null;
  // Without the path's rate, a window far above what the run carried bounds nothing worth a figure (loopback: Tbit/s).
  const carriesText =
    carries === null
      ? ''
      : stated === null && measured !== null && carries > WINDOW_FIGURE_ABOVE_MEASURED * measured
        ? `would allow far more than the measured ${formatRate(measured)} at that RTT`
        : `carries at most ${formatRate(carries)} at that RTT`;
  const today =
    window !== null && carries !== null
      ? `; today's window, ${groupDigits(Math.round(window))} bytes${streams > 1 ? ` over ${streams} streams` : ''}, ${carriesText}`
      : '';
  if (rtt === null) return 'Bandwidth-delay product: unknown (needs the round-trip time)';
  if (rate === null) {
    const left = stated !== null ? ` (the stated ${formatRate(stated)} is below what this run measured, so it is not this path's)` : '';
    return `Bandwidth-delay product: unknown: the path's rate is unknown${left}; ${pathRateWhere('terminal')}${today}`;
  }
  const bytes = bdpBytes(rate, rtt);
  const perStream = bytes / streams;
  const split = splitWindow(Math.ceil(perStream), streams);
  const needs =
    perStream > MAX_SCALED_WINDOW
      ? `the path needs ${split.streams} streams of ${groupDigits(split.windowBytes)} bytes (one stream's window cannot exceed RFC 7323's ${groupDigits(MAX_SCALED_WINDOW)} bytes)`
      : `the window the path needs${streams > 1 ? ` (${groupDigits(Math.ceil(perStream))} bytes per stream)` : ''}`;
  return `Bandwidth-delay product of the path: ${groupDigits(bytes)} bytes (${which}, ${formatRate(rate)}, x ${formatRtt(rtt)} / 8): ${needs}${today}`;
}
