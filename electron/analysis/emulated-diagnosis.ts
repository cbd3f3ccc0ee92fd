/**
 * The diagnosis of a run through the link-emulator proxy: the kernels there only see the fast
 * local hop, so their RTT, window and timers say nothing about the emulated path. The emulated
 * link's settings (delay, rate, window, modelled loss) are diagnosed instead; a run that bypassed
 * the emulator part of the time gets no single verdict.
 */
import type { Diagnosis, DiagnosisFinding, LinkInfo, StreamResult, TotalResult } from '../contract/result.js';
import { fig } from '../contract/finding.js';
import { payloadFraction } from '../contract/wire.js';
import { INITIAL_WINDOW_SEGMENTS, rampRoundTrips, renoWindowBytes } from '../contract/what-if.js';
import { formatRateShort, formatRtt, groupDigits } from '../contract/units.js';
import { emulatorLag, emulatorSentence } from './emulator-verdict.js';
import { diagnoseLimiter } from './limiter.js';
import { BINDING_FACTOR } from './verdicts/context.js';

type Settings = NonNullable<LinkInfo['settings']>;

/**
 * Reno's average window under a loss ratio p, bytes, for `streams` streams: MSS × √(3 / (2p))
 * each (Mathis et al.; what the proxy's loss model approximates). Null without loss.
 */
function modelledLossWindow(lossRatio: number, mssBytes: number, streams: number): number | null {
  const w = renoWindowBytes(lossRatio, mssBytes);
  return w === null ? null : streams * w;
}

function lossSentence(
  p: number,
  mss: number,
  rttSeconds: number,
  windowBytes: number,
  measured: number,
  counts: { segments: number; losses: number; halvings: number } | null,
): string {
  const pct = `${Number((p * 100).toPrecision(3))} %`;
  const cap = (windowBytes * 8) / rttSeconds;
  const times = (n: number, one: string, many: string): string => `${groupDigits(n)} ${n === 1 ? one : many}`;
  const did = counts
    ? ` The proxy modelled ${times(counts.losses, 'loss', 'losses')} in ${times(counts.segments, 'segment', 'segments')} and halved its in-flight cap ${times(counts.halvings, 'time', 'times')}.`
    : '';
  const head =
    `With ${pct} modelled loss, Reno averages about ${groupDigits(Math.round(windowBytes))} B in flight (MSS ${groupDigits(mss)} B × √(3/(2p)) per stream), ` +
    `${formatRateShort(cap)} over RTT ${formatRtt(rttSeconds)}; measured ${formatRateShort(measured)}`;
  // An average over many losses: a short run (slow start, few losses) can beat it, or fall short of it.
  if (measured > 1.1 * cap) {
    return `${head}, above that average: the run was too short for the losses to set the pace (slow start, and where the few losses fell, decide it), but congestion control under the modelled loss is the limit.${did}`;
  }
  if (measured * BINDING_FACTOR < cap) {
    return `${head}, below that average: a short run sees few losses, and where they fell (and how many came close together) decides much of it; congestion control under the modelled loss is the limit.${did}`;
  }
  return `${head}: the loss is the limit.${did}`;
}

/** A run shorter than this many ramps is told that slow start took much of it. */
const RAMPS_PER_RUN = 4;

/**
 * Through an emulated link with slow start: when the run was too short for slow start to reach the
 * link's rate, say so (a satellite run of a few seconds is mostly ramp). Null when it does not apply.
 */
function rampSentence(s: Settings, rttSeconds: number, streams: number, measured: number, seconds: number | null): string | null {
  if (seconds === null || s.rateBitsPerSec === null) return null;
  const bdp = ((s.rateBitsPerSec / 8) * rttSeconds) / streams;
  const target = Math.min(bdp, s.windowBytes ?? Infinity);
  const rtts = rampRoundTrips(target, s.mssBytes);
  if (rtts === 0) return null;
  const rampSeconds = rtts * rttSeconds;
  const ceiling = Math.min(s.rateBitsPerSec * payloadFraction(s.mssBytes), ((s.windowBytes ?? Infinity) * 8 * streams) / rttSeconds);
  if (seconds >= RAMPS_PER_RUN * rampSeconds || measured >= 0.8 * ceiling) return null;
  return (
    `Slow start: from ${INITIAL_WINDOW_SEGMENTS} × ${groupDigits(s.mssBytes)} B, doubling per round trip, a stream needs about ${rtts} round trips (${rampSeconds.toFixed(1)} s) ` +
    `to reach ${groupDigits(Math.round(target))} B in flight (${target === bdp ? "the link's bandwidth-delay product" : 'the window'}); the data flowed for ${seconds.toFixed(1)} s, ` +
    `so the ramp took much of it: measured ${formatRateShort(measured)} of the ${formatRateShort(ceiling)} the link allows after it. Run at least ${Math.ceil(RAMPS_PER_RUN * rampSeconds)} s to see the link's rate.`
  );
}

/** The diagnosis of one direction through the emulated link `link` with its `emulated` settings. */
export function diagnoseEmulated(
  link: LinkInfo,
  emulated: Settings,
  direction: Diagnosis['direction'],
  total: TotalResult,
  streams: StreamResult[],
  linkBitsPerSecond: number | null,
): DiagnosisFinding {
  const toggles = link.bypassToggles ?? [];
  if (emulated && toggles.some((b) => b.bypass)) {
    // Part of the run went around the emulated link: two paths, no single limit.
    const when = toggles.map((b) => `${b.bypass ? 'on' : 'off'} at ${b.t.toFixed(1)} s`).join(', ');
    return {
      direction,
      verdict: 'unknown',
      case: 'unknown/emulator-bypassed',
      figures: total.bitsPerSecond !== null ? { measured: fig(total.bitsPerSecond, 'bit/s', 'measured') } : {},
      sentence: `The link emulator was bypassed during the run (bypass ${when}), so the measured ${formatRateShort(total.bitsPerSecond ?? 0)} mixes the emulated path and the direct one: no single limit explains it. Run again without the bypass to diagnose the emulated link.`,
      numbers: diagnoseLimiter({
        measuredBitsPerSecond: total.bitsPerSecond,
        rttSeconds: null,
        windowBytes: null,
        windowScale: null,
        cwndBytes: null,
        retransSegments: null,
        busySeconds: null,
        rwndLimitedSeconds: null,
        sndbufLimitedSeconds: null,
        transferSeconds: total.seconds,
        linkBitsPerSecond: null,
      }).numbers,
    };
  }
  // Through the link-emulator proxy the kernels only see the fast local hop: their RTT,
  // window and limit timers say nothing about the emulated path. Diagnose the emulated one.
  const rttSeconds = (2 * emulated.delayMs) / 1000 || null;
  const lossWindow = modelledLossWindow(emulated.lossRatio, emulated.mssBytes, Math.max(1, streams.length));
  const lossCounts = link.modelledLoss?.[direction === 'controllerToResponder' ? 'up' : 'down'] ?? null;
  const d = diagnoseLimiter(
    {
      measuredBitsPerSecond: total.bitsPerSecond,
      rttSeconds,
      // The emulator holds each stream to its window; the limiter's window is the sum over the streams (limiter-inputs.ts).
      windowBytes: emulated.windowBytes === null ? null : emulated.windowBytes * Math.max(1, streams.length),
      // With modelled loss, Reno's average window under that loss plays the congestion window.
      windowScale: null,
      cwndBytes: lossWindow,
      retransSegments: lossCounts?.losses ?? null,
      busySeconds: null,
      rwndLimitedSeconds: null,
      sndbufLimitedSeconds: null,
      transferSeconds: total.seconds,
      linkBitsPerSecond: emulated.rateBitsPerSec ?? linkBitsPerSecond,
      missingReason: 'the emulated link has no delay, so there is no round trip to reason about',
    },
    Math.max(1, streams.length),
  );
  const ramp =
    rttSeconds && emulated.slowstart && lossWindow === null && d.verdict !== 'window-limited'
      ? rampSentence(emulated, rttSeconds, Math.max(1, streams.length), total.bitsPerSecond ?? 0, total.seconds)
      : null;
  // In the emulated model nothing but the window, the rate and the modelled loss can hold a
  // stream back: well below the rate and not window-bound, the loss is what did, even when a
  // short run's few random losses put it below Reno's average (the limiter's 1.5 band).
  const measured = total.bitsPerSecond ?? 0;
  const belowRate = emulated.rateBitsPerSec === null || measured < 0.8 * emulated.rateBitsPerSec * payloadFraction(emulated.mssBytes);
  const lossBinds = lossWindow !== null && rttSeconds !== null && d.verdict !== 'window-limited' && (d.verdict === 'congestion-limited' || belowRate);
  const lag = emulatorLag(link, direction === 'controllerToResponder' ? 'up' : 'down', measured, Math.max(1, streams.length));
  if (lag) {
    const figures = { ...d.figures, ...(lag.modelBitsPerSecond !== null ? { modelRate: fig(lag.modelBitsPerSecond, 'bit/s', 'model') } : {}) };
    return { direction, ...d, verdict: 'emulator-limited', case: 'emulator-limited/fell-behind', figures, sentence: emulatorSentence(lag, measured) };
  }
  const sentence = ramp ?? (lossBinds ? lossSentence(emulated.lossRatio, emulated.mssBytes, rttSeconds, lossWindow, measured, lossCounts) : d.sentence);
  return {
    direction,
    ...d,
    ...(ramp
      ? { verdict: 'congestion-limited' as const, case: 'congestion-limited/emulated-slow-start' as const }
      : lossBinds
        ? { verdict: 'congestion-limited' as const, case: 'congestion-limited/emulated-loss' as const }
        : d.verdict === 'window-limited'
          ? { case: 'window-limited/emulated-window' as const }
          : {}),
    sentence: `${sentence} (Emulated link: its RTT, window and rate, not the local hop's TCP_INFO.)`,
  };
}
