/**
 * The detail of runs through Longhaul's link emulator: the emulated link's slow start and modelled loss,
 * the emulator itself falling behind, a run that bypassed it part of the time.
 */
import type { EmulatorSign } from '../finding.js';
import type { FindingData } from './words.js';
import { formatRateShort, formatRtt, groupDigits } from '../units.js';
import { figure, measuredText, pct } from './words.js';

/** unknown/emulator-bypassed. */
export function bypassedText(d: FindingData): string {
  const when = (d.facts?.bypass ?? []).map((b) => `${b.bypass ? 'on' : 'off'} at ${b.t.toFixed(1)} s`).join(', ');
  return `The link emulator was bypassed during the run (bypass ${when}), so the measured ${measuredText(d)} mixes the emulated path and the direct one: no single limit explains it. Run again without the bypass to diagnose the emulated link.`;
}

function signText(s: EmulatorSign): string {
  switch (s.kind) {
    case 'stalled':
      return `its process did not run for ${pct(s.share)} of the time it carried data (stopped, or its CPU went elsewhere)`;
    case 'behind':
      return `its relay was behind the sender ${pct(s.share)} of the time it carried data`;
    case 'cpu':
      return `it used ${pct(s.share)} of this PC's CPU (${s.cores} cores, shared with both ends of the run) while it carried data`;
    case 'late':
      return `${pct(s.share)} of the bytes left more than ${s.lateMs} ms after their scheduled time (the latest ${Math.round(s.maxLateMs)} ms)`;
    case 'dropped':
      return `it lost ${groupDigits(s.datagrams)} datagrams itself, its sockets' receive buffers full (${pct(s.share)} of those lost)`;
  }
}

/** emulator-limited/fell-behind: what the emulator did, against what the emulated link allows, and what to do. */
export function fellBehindText(d: FindingData): string {
  const e = d.facts?.emulator;
  const model = figure(d, 'modelRate');
  const allows = model === null ? 'an emulated link with no rate or window limit' : `the ${formatRateShort(model)} the emulated link allows`;
  const relay = e?.relay === 'native' ? 'the native relay thread' : `the JavaScript relay (${e?.relayReason ?? 'no native relay'})`;
  return (
    `The link emulator on this PC, not the emulated link, was the limit: ${(e?.signs ?? []).map(signText).join(', and ')}, so it carried ${measuredText(d)} of ${allows}. ` +
    `It moved the bytes with ${relay}. Lower the emulated rate, close what else runs on this PC, or put the emulator on a PC of its own.`
  );
}

/** congestion-limited/emulated-slow-start: the run was too short for slow start to reach the link's rate. */
export function emulatedRampText(d: FindingData): string {
  const r = d.facts?.ramp;
  if (!r) return `Slow start took much of the run; measured ${measuredText(d)}.`;
  const rampSeconds = figure(d, 'rampSeconds') ?? 0;
  return (
    `Slow start: from ${r.initialSegments} × ${groupDigits(r.mssBytes)} B, doubling per round trip, a stream needs about ${r.roundTrips} round trips (${rampSeconds.toFixed(1)} s) ` +
    `to reach ${groupDigits(Math.round(r.targetBytes))} B in flight (${r.toBdp ? "the link's bandwidth-delay product" : 'the window'}); the data flowed for ${r.flowedSeconds.toFixed(1)} s, ` +
    `so the ramp took much of it: measured ${measuredText(d)} of the ${formatRateShort(r.ceilingBitsPerSecond)} the link allows after it. Run at least ${r.runSeconds} s to see the link's rate.`
  );
}

/** congestion-limited/emulated-loss: Reno's average under the modelled loss against the measured rate. */
export function emulatedLossText(d: FindingData): string {
  const l = d.facts?.emulatedLoss;
  const rtt = d.numbers.rttSeconds ?? 0;
  if (!l || rtt <= 0) return `Congestion control under the modelled loss is the limit; measured ${measuredText(d)}.`;
  const measured = d.numbers.measuredBitsPerSecond ?? 0;
  const pct = `${Number((l.lossRatio * 100).toPrecision(3))} %`;
  const cap = (l.windowBytes * 8) / rtt;
  const times = (n: number, one: string, many: string): string => `${groupDigits(n)} ${n === 1 ? one : many}`;
  const c = l.counts;
  const did = c
    ? ` The proxy modelled ${times(c.losses, 'loss', 'losses')} in ${times(c.segments, 'segment', 'segments')} and halved its in-flight cap ${times(c.halvings, 'time', 'times')}.`
    : '';
  const head =
    `With ${pct} modelled loss, Reno averages about ${groupDigits(Math.round(l.windowBytes))} B in flight (MSS ${groupDigits(l.mssBytes)} B × √(3/(2p)) per stream), ` +
    `${formatRateShort(cap)} over RTT ${formatRtt(rtt)}; measured ${formatRateShort(measured)}`;
  // An average over many losses: a short run (slow start, few losses) can beat it, or fall short of it.
  if (l.band === 'above')
    return `${head}, above that average: the run was too short for the losses to set the pace (slow start, and where the few losses fell, decide it), but congestion control under the modelled loss is the limit.${did}`;
  if (l.band === 'below')
    return `${head}, below that average: a short run sees few losses, and where they fell (and how many came close together) decides much of it; congestion control under the modelled loss is the limit.${did}`;
  return `${head}: the loss is the limit.${did}`;
}
