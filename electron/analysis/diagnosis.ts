/**
 * Why a direction's throughput is what it is: window-limited,
 * congestion-limited, application-limited or link-limited, in one sentence
 * with the numbers behind it. Pure functions over the result document (and
 * the TCP_INFO series in it), so a saved result can be re-diagnosed.
 *
 * The model: a TCP sender has at most min(receive window, cwnd) bytes in
 * flight per round trip, so throughput ≤ window × 8 / RTT. Whichever bound
 * sits near the measured rate is the limit; when neither is near it, the
 * sender either kept the socket full (the path's rate is the limit) or not
 * (the application is). Linux's busy / rwnd-limited / sndbuf-limited timers
 * back the verdict where the kernel has them.
 */
import type { Diagnosis, LimiterVerdict, LonghaulResult } from '../contract/result.js';
import { payloadFraction } from '../contract/wire.js';
import { rateContradicted } from '../contract/path-math.js';
import { INITIAL_WINDOW_SEGMENTS, rampRoundTrips, renoWindowBytes } from '../contract/what-if.js';
import { formatRateShort, formatRtt, groupDigits } from '../util/units.js';
import { emulatorLag, emulatorSentence } from './emulator-verdict.js';
import { limiterInputs, type LimiterInputs } from './limiter-inputs.js';

export { limiterInputs, transferRttSeconds, type LimiterInputs } from './limiter-inputs.js';
import { mssCanExplain, mssCaveat, mssFigures, mssIsSmall, mssSentence } from './mss-verdict.js';

/** A bound "binds" when the measured rate is within this factor of it. */
const BINDING_FACTOR = 1.5;
/** Share of busy time limited by window or send buffer above which the window is the limit. */
const WINDOW_SHARE = 0.5;

function share(part: number | null, whole: number | null): number | null {
  return part !== null && whole !== null && whole > 0 ? Math.min(1, part / whole) : null;
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** The verdict and its sentence from the inputs. */
export function diagnoseLimiter(i: LimiterInputs): Omit<Diagnosis, 'direction'> {
  const rwndShare = share(i.rwndLimitedSeconds, i.busySeconds);
  const sndbufShare = share(i.sndbufLimitedSeconds, i.busySeconds);
  const numbers: Diagnosis['numbers'] = {
    measuredBitsPerSecond: i.measuredBitsPerSecond,
    rttSeconds: i.rttSeconds,
    minRttSeconds: i.minRttSeconds ?? null,
    windowBytes: i.windowBytes,
    windowBitsPerSecond: i.windowBytes !== null && i.rttSeconds ? (i.windowBytes * 8) / i.rttSeconds : null,
    cwndBytes: i.cwndBytes,
    cwndBitsPerSecond: i.cwndBytes !== null && i.rttSeconds ? (i.cwndBytes * 8) / i.rttSeconds : null,
    retransSegments: i.retransSegments,
    rwndLimitedShare: rwndShare,
    sndbufLimitedShare: sndbufShare,
    windowScale: i.windowScale,
  };
  const verdict = (v: LimiterVerdict, sentence: string): Omit<Diagnosis, 'direction'> => ({ verdict: v, sentence, numbers });
  const measured = i.measuredBitsPerSecond;
  if (measured === null || measured <= 0) return verdict('unknown', 'Nothing was measured in this direction, so there is nothing to explain.');
  const m = formatRateShort(measured);
  if (i.linkBitsPerSecond && rateContradicted(i.linkBitsPerSecond, measured)) {
    const without = diagnoseLimiter({ ...i, linkBitsPerSecond: null });
    const note = `The link's stated rate, ${formatRateShort(i.linkBitsPerSecond)}, is below the ${m} measured, so it is not this path's rate and the verdict leaves it out.`;
    return { ...without, sentence: `${without.sentence} ${note}` };
  }
  if (i.linkBitsPerSecond && measured >= 0.8 * i.linkBitsPerSecond) {
    return verdict(
      'link-limited',
      `Measured ${m} of the link's ${formatRateShort(i.linkBitsPerSecond)} (${pct(measured / i.linkBitsPerSecond)}): the link is the limit.`,
    );
  }
  if (!i.rttSeconds) {
    return verdict('unknown', `Measured ${m}, but the RTT is unknown (${i.missingReason ?? 'TCP_INFO was not available'}), so the limit cannot be told.`);
  }
  const rtt = formatRtt(i.rttSeconds);
  const windowCap = numbers.windowBitsPerSecond;
  const cwndCap = numbers.cwndBitsPerSecond;
  const windowBinds =
    windowCap !== null && measured * BINDING_FACTOR >= windowCap && (i.cwndBytes === null || i.windowBytes === null || i.windowBytes <= i.cwndBytes);
  const limitedShare = (rwndShare ?? 0) + (sndbufShare ?? 0);
  // Where the kernel keeps its limit timers they decide: a window that merely fills a
  // bottleneck's queue (W/RTT ≈ rate because RTT grew) is not what holds the sender back.
  const windowLimited = rwndShare !== null || sndbufShare !== null ? limitedShare >= WINDOW_SHARE : windowBinds;
  const queued = windowLimited ? standingQueue(i, m, rtt) : null;
  if (queued) return verdict('link-limited', queued);
  if (windowLimited) {
    const scale = i.windowScale === 0 ? ' Window scaling was not negotiated (scale 0).' : i.windowScale !== null ? ` Window scale ${i.windowScale}.` : '';
    if (sndbufShare !== null && sndbufShare > (rwndShare ?? 0) && sndbufShare >= WINDOW_SHARE) {
      return verdict(
        'window-limited',
        `The sender's send buffer held it back ${pct(sndbufShare)} of its busy time at RTT ${rtt}; measured ${m}: the send buffer (window) is the limit.`,
      );
    }
    // window ÷ RTT is a ceiling only if the RTT sample is representative; when the measured rate
    // beats it, the RTT varied (queueing, a noisy loopback) and only the kernel's timers can tell.
    const windowBytes = i.windowBytes;
    const capHolds = windowCap !== null && windowBytes !== null && measured <= windowCap * 1.1 && measured * BINDING_FACTOR >= windowCap;
    const base = capHolds
      ? `Receiver window ${groupDigits(windowBytes)} B over RTT ${rtt} allows at most ${formatRateShort(windowCap)}; measured ${m}: the window is the limit.`
      : `The receive window${i.windowBytes !== null ? ` (${groupDigits(i.windowBytes)} B)` : ''} held the sender back ${pct(rwndShare ?? 0)} of its busy time; measured ${m} at a median RTT of ${rtt}` +
        `${windowCap !== null ? ` (the RTT varied during the run, so window ÷ RTT = ${formatRateShort(windowCap)} is not a ceiling here)` : ''}: the window is the limit.`;
    const timer = rwndShare !== null && capHolds ? ` The kernel counted ${pct(rwndShare)} of the busy time as receive-window-limited.` : '';
    return verdict('window-limited', base + scale + timer);
  }
  const cwndBytes = i.cwndBytes;
  if (cwndCap !== null && cwndBytes !== null && measured * BINDING_FACTOR >= cwndCap) {
    const retrans = i.retransSegments ? ` with ${groupDigits(i.retransSegments)} retransmitted segments` : ' (no retransmissions: still growing)';
    // Losses at a bottleneck look the same from the sender: name the possibility when the link's rate is not given.
    const link =
      i.retransSegments && !i.linkBitsPerSecond ? ` If the path's rate is about ${m}, the losses are its queue overflowing and the link is the limit.` : '';
    return verdict(
      'congestion-limited',
      `Congestion window ${groupDigits(cwndBytes)} B over RTT ${rtt} allows at most ${formatRateShort(cwndCap)}; measured ${m}${retrans}: congestion control is the limit.${link}`,
    );
  }
  const bounds = [
    windowCap !== null ? `the window allows ${formatRateShort(windowCap)}` : null,
    cwndCap !== null ? `the congestion window ${formatRateShort(cwndCap)}` : null,
  ]
    .filter((x): x is string => x !== null)
    .join(' and ');
  const busyShare = share(i.busySeconds, i.transferSeconds);
  if (busyShare !== null && busyShare < 0.9) {
    return verdict(
      'application-limited',
      `At RTT ${rtt} ${bounds || 'TCP'} would carry more than the measured ${m}, and the sender had data in flight only ${pct(busyShare)} of the time: the application is the limit.`,
    );
  }
  return verdict(
    'link-limited',
    `At RTT ${rtt} ${bounds || 'TCP'} would carry more than the measured ${m} while the sender kept the socket full: the path (link or receiving host) is the limit.`,
  );
}

/** The RTT must exceed the path's minimum by this factor to count as a standing queue. */
const QUEUE_RTT_FACTOR = 1.2;
/**
 * Below this minimum RTT (loopback, a LAN) an RTT above the minimum is mostly scheduling
 * and the receiving application's wake-ups, which a larger window does overcome.
 */
const QUEUE_MIN_RTT_SECONDS = 0.001;

/**
 * A window larger than the path's rate × minimum RTT makes the window "bind" (the kernel
 * counts rwnd-limited time) while the excess only waits in the bottleneck's queue: the RTT
 * grows until window ÷ RTT equals the rate. A standing queue means the bottleneck never
 * idles, so the path is the limit, not the window. Measured on the WAN harness (4 Mbit/s,
 * 200 ms): a 100,000 B request advertised 125,948 B, the RTT grew to 255 ms, and the kernel
 * counted 51% rwnd-limited time at the link's rate. Returns the sentence, or null.
 */
function standingQueue(i: LimiterInputs, measured: string, rtt: string): string | null {
  const minRtt = i.minRttSeconds ?? null;
  if (minRtt === null || minRtt < QUEUE_MIN_RTT_SECONDS || i.windowBytes === null || !i.rttSeconds || !i.measuredBitsPerSecond) return null;
  const atMinRtt = (i.windowBytes * 8) / minRtt;
  if (i.rttSeconds < QUEUE_RTT_FACTOR * minRtt || atMinRtt < QUEUE_RTT_FACTOR * i.measuredBitsPerSecond) return null;
  return (
    `Receiver window ${groupDigits(i.windowBytes)} B would allow ${formatRateShort(atMinRtt)} at the path's minimum RTT of ${formatRtt(minRtt)}, ` +
    `but the RTT grew to ${rtt} while the excess waited in a queue; measured ${measured}: the path (its bottleneck link or the receiving host) is the limit, not the window.`
  );
}

/**
 * Reno's average window under a loss ratio p, bytes, for `streams` streams: MSS × √(3 / (2p))
 * each (Mathis et al.; what the proxy's loss model approximates). Null without loss.
 */
export function modelledLossWindow(lossRatio: number, mssBytes: number, streams: number): number | null {
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
function rampSentence(
  s: NonNullable<NonNullable<LonghaulResult['link']>['settings']>,
  rttSeconds: number,
  streams: number,
  measured: number,
  seconds: number | null,
): string | null {
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

/** One diagnosis per direction that carried data. */
export function diagnoseResult(r: LonghaulResult, linkBitsPerSecond: number | null = null): Diagnosis[] {
  const out: Diagnosis[] = [];
  for (const direction of ['controllerToResponder', 'responderToController'] as const) {
    const total = r.directions[direction];
    if (!total) continue;
    const sender = direction === 'controllerToResponder' ? 'controller' : 'responder';
    const streams = r.streams.filter((s) => s.sender === sender);
    const emulated = r.link?.settings ?? null;
    const toggles = r.link?.bypassToggles ?? [];
    if (emulated && toggles.some((b) => b.bypass)) {
      // Part of the run went around the emulated link: two paths, no single limit.
      const when = toggles.map((b) => `${b.bypass ? 'on' : 'off'} at ${b.t.toFixed(1)} s`).join(', ');
      out.push({
        direction,
        verdict: 'unknown',
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
      });
      continue;
    }
    if (emulated) {
      // Through the link-emulator proxy the kernels only see the fast local hop: their RTT,
      // window and limit timers say nothing about the emulated path. Diagnose the emulated one.
      const rttSeconds = (2 * emulated.delayMs) / 1000 || null;
      const lossWindow = modelledLossWindow(emulated.lossRatio, emulated.mssBytes, Math.max(1, streams.length));
      const lossCounts = r.link?.modelledLoss?.[direction === 'controllerToResponder' ? 'up' : 'down'] ?? null;
      const d = diagnoseLimiter({
        measuredBitsPerSecond: total.bitsPerSecond,
        rttSeconds,
        windowBytes: emulated.windowBytes,
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
      });
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
      const lag = r.link ? emulatorLag(r.link, direction === 'controllerToResponder' ? 'up' : 'down', measured, Math.max(1, streams.length)) : null;
      if (lag) {
        out.push({ direction, ...d, verdict: 'emulator-limited', sentence: emulatorSentence(lag, measured) });
        continue;
      }
      const sentence = ramp ?? (lossBinds ? lossSentence(emulated.lossRatio, emulated.mssBytes, rttSeconds, lossWindow, measured, lossCounts) : d.sentence);
      out.push({
        direction,
        ...d,
        ...(ramp || lossBinds ? { verdict: 'congestion-limited' as const } : {}),
        sentence: `${sentence} (Emulated link: its RTT, window and rate, not the local hop's TCP_INFO.)`,
      });
      continue;
    }
    const inputs = limiterInputs(streams, total.bitsPerSecond, total.seconds, linkBitsPerSecond);
    const d = diagnoseLimiter(inputs);
    const mss = mssFigures(streams, r.params.mssBytes ?? null);
    if (mss && mssIsSmall(mss) && !inputs.linkBitsPerSecond) {
      if (mssCanExplain(d.verdict)) {
        const context = { verdict: d.verdict, cwndBytes: d.numbers.cwndBytes, cwndBitsPerSecond: d.numbers.cwndBitsPerSecond };
        out.push({ direction, ...d, verdict: 'mss-limited', sentence: mssSentence(mss, total.bitsPerSecond ?? 0, context) });
        continue;
      }
      if (d.verdict === 'link-limited') {
        out.push({ direction, ...d, sentence: `${d.sentence} ${mssCaveat(mss)}` });
        continue;
      }
    }
    out.push({ direction, ...d });
  }
  return out;
}
