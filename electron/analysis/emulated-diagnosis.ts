/**
 * The diagnosis of a run through the link-emulator proxy: the kernels there only see the fast
 * local hop, so their RTT, window and timers say nothing about the emulated path. The emulated
 * link's settings (delay, rate, window, modelled loss) are diagnosed instead; a run that bypassed
 * the emulator part of the time gets no single verdict.
 */
import type { Diagnosis, DiagnosisFinding, StreamResult, TotalResult } from '../contract/result.js';
import type { LinkInfo } from '../contract/link-info.js';
import { withDetail } from '../contract/detail-text/index.js';
import { fig, type FindingFacts, type FindingNote } from '../contract/finding.js';
import { payloadFraction } from '../contract/wire.js';
import { INITIAL_WINDOW_SEGMENTS, rampRoundTrips, renoWindowBytes } from '../contract/what-if.js';
import { emulatorLag, emulatorSigns } from './emulator-verdict.js';
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

/** Where a run fell against Reno's average under the modelled loss: an average over many losses, which a short run can beat or miss. */
function lossBand(measured: number, windowBytes: number, rttSeconds: number): 'above' | 'below' | 'within' {
  const cap = (windowBytes * 8) / rttSeconds;
  return measured > 1.1 * cap ? 'above' : measured * BINDING_FACTOR < cap ? 'below' : 'within';
}

/** A run shorter than this many ramps is told that slow start took much of it. */
const RAMPS_PER_RUN = 4;

/**
 * Through an emulated link with slow start: when the run was too short for slow start to reach the
 * link's rate, the ramp's figures (a satellite run of a few seconds is mostly ramp). Null when it does not apply.
 */
function rampOf(
  s: Settings,
  rttSeconds: number,
  streams: number,
  measured: number,
  seconds: number | null,
): { facts: NonNullable<FindingFacts['ramp']>; rampSeconds: number } | null {
  if (seconds === null || s.rateBitsPerSec === null) return null;
  const bdp = ((s.rateBitsPerSec / 8) * rttSeconds) / streams;
  const target = Math.min(bdp, s.windowBytes ?? Infinity);
  const rtts = rampRoundTrips(target, s.mssBytes);
  if (rtts === 0) return null;
  const rampSeconds = rtts * rttSeconds;
  const ceiling = Math.min(s.rateBitsPerSec * payloadFraction(s.mssBytes), ((s.windowBytes ?? Infinity) * 8 * streams) / rttSeconds);
  if (seconds >= RAMPS_PER_RUN * rampSeconds || measured >= 0.8 * ceiling) return null;
  return {
    rampSeconds,
    facts: {
      initialSegments: INITIAL_WINDOW_SEGMENTS,
      mssBytes: s.mssBytes,
      roundTrips: rtts,
      targetBytes: target,
      toBdp: target === bdp,
      flowedSeconds: seconds,
      ceilingBitsPerSecond: ceiling,
      runSeconds: Math.ceil(RAMPS_PER_RUN * rampSeconds),
    },
  };
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
    return withDetail({
      direction,
      verdict: 'unknown',
      case: 'unknown/emulator-bypassed',
      figures: total.bitsPerSecond !== null ? { measured: fig(total.bitsPerSecond, 'bit/s', 'measured') } : {},
      facts: { bypass: toggles.map((b) => ({ bypass: b.bypass, t: b.t })) },
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
    });
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
      ? rampOf(emulated, rttSeconds, Math.max(1, streams.length), total.bitsPerSecond ?? 0, total.seconds)
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
    const facts: FindingFacts = { ...d.facts, emulator: { signs: emulatorSigns(lag), relay: lag.watch.relay, relayReason: lag.watch.relayReason } };
    // The emulator's own account replaces the link's: none of the limiter's notes are about it.
    return withDetail({ direction, ...d, verdict: 'emulator-limited', case: 'emulator-limited/fell-behind', figures, facts, notes: [] });
  }
  const notes: FindingNote[] = [...(d.notes ?? []), 'emulated-link'];
  if (ramp)
    return withDetail({
      direction,
      ...d,
      verdict: 'congestion-limited',
      case: 'congestion-limited/emulated-slow-start',
      figures: { ...d.figures, rampSeconds: fig(ramp.rampSeconds, 's', 'model') },
      facts: { ...d.facts, ramp: ramp.facts },
      notes,
    });
  if (lossBinds)
    return withDetail({
      direction,
      ...d,
      verdict: 'congestion-limited',
      case: 'congestion-limited/emulated-loss',
      facts: {
        ...d.facts,
        emulatedLoss: {
          lossRatio: emulated.lossRatio,
          mssBytes: emulated.mssBytes,
          windowBytes: lossWindow,
          counts: lossCounts,
          band: lossBand(measured, lossWindow, rttSeconds),
        },
      },
      notes,
    });
  return withDetail({ direction, ...d, ...(d.verdict === 'window-limited' ? { case: 'window-limited/emulated-window' as const } : {}), notes });
}
