/**
 * The block printed at the end of every CLI run (and shown in the app): per
 * stream and total under both named conventions, then what the path tells
 * when known — round-trip time, bandwidth-delay product, the limiter
 * diagnosis, the Land Speed Record metric. Unknown is printed as "unknown",
 * never guessed.
 */
import { zeroCopyLine } from '../contract/send-path-text.js';
import { pathDirectionLabel } from '../contract/direction.js';
import { omitText } from '../contract/omit-text.js';
import type { LonghaulResult, PartialRate, TotalResult } from '../contract/result.js';
import { partialLabel, shownRate } from '../contract/partial-text.js';
import { transferRttSeconds } from '../analysis/limiter-inputs.js';
import { formatBytes, formatRate, groupDigits } from '../contract/units.js';
import { bitrateText } from '../contract/pacing-info.js';
import { formatTcpSummary } from './tcp-lines.js';
import { congestionLine } from '../contract/congestion-text.js';
import { formatCpuLines } from './cpu-lines.js';
import { bitMetresPerSec, formatBitMetres } from './path-metrics.js';
import { bdpLine, rttLine } from './bdp-line.js';
import { formatAdvice } from '../contract/advice-text.js';
import { formatWhatIf } from '../contract/what-if-text.js';
import { delaySentence } from '../contract/delay-info.js';
import { capacityLines } from '../contract/capacity.js';
import { bypassCaveat } from '../contract/bypass-text.js';
import { VERDICT_LABELS } from '../contract/verdict-labels.js';
import { sentText, shownSent } from '../contract/sent-bytes.js';

/** What the result does not carry (yet): measured by the native addon, or given by the user. */
export interface SummaryExtras {
  /** Smoothed round-trip time in ms, when measured; null/undefined = unknown. */
  rttMs?: number | null;
  /** One-sentence limiter diagnosis ("the receive window", "the sender's CPU"…), when known. */
  diagnosis?: string | null;
  /** Path length for the Land Speed Record metric, km; absent: the one the result records (`distance`), if any. */
  distanceKm?: number | null;
}

function seconds(s: number | null): string {
  return s === null ? 'unknown' : `${s.toFixed(3)} s`;
}

/** How a partial rate's seconds were counted (PartialRate.span), for the --explain line. */
const PARTIAL_SPAN: Record<PartialRate['span'], string> = {
  'first-to-last-byte': 'first byte to last byte',
  'start-to-last-sample': "the start to the receiver's last sample",
};

function totalLines(label: string, t: TotalResult): string[] {
  const p = t.partialRate;
  return [
    `${label}: ${groupDigits(t.bytes)} bytes (${formatBytes(t.bytes)}, decimal) received in ${seconds(t.seconds)}`,
    `  wall-clock aggregate (total bytes x 8 / first byte to last byte):        ${formatRate(t.bitsPerSecond)}`,
    `  per-stream sum (each stream over its own time, PetaBumps "Total"):       ${formatRate(t.streamSumBitsPerSecond)}`,
    ...(p ? [`  ${partialLabel(p)} (total bytes x 8 / ${PARTIAL_SPAN[p.span]}): ${formatRate(p.bitsPerSecond)}`] : []),
  ];
}

/**
 * The run's RTT in ms, the same figure the limiter sentence quotes: the diagnosis's, else the
 * sending kernels' smoothed RTT while data was in flight (analysis/limiter-inputs.ts transferRttSeconds).
 * Null if none was measured.
 */
function measuredRttMs(r: LonghaulResult): number | null {
  const seconds = r.diagnosis?.find((d) => d.numbers.rttSeconds !== null)?.numbers.rttSeconds ?? transferRttSeconds(r.streams);
  return seconds === null ? null : seconds * 1000;
}

/** The limiter sentences of the result's diagnosis, one per direction; null if there is none. */
function diagnosisText(r: LonghaulResult): string | null {
  const ds = (r.diagnosis ?? []).filter((d) => d.verdict !== 'unknown' || d.sentence);
  const [first] = ds;
  if (!first) return null;
  if (ds.length === 1) return `${VERDICT_LABELS[first.verdict]}. ${first.sentence}`;
  return ds.map((d) => `\n  ${pathDirectionLabel(d.direction, true)}: ${VERDICT_LABELS[d.verdict]}. ${d.sentence}`).join('');
}

function pathLines(r: LonghaulResult, x: SummaryExtras): string[] {
  const lines: string[] = [];
  const given = x.rttMs === undefined || x.rttMs === null ? null : x.rttMs / 1000;
  const ms = measuredRttMs(r);
  const median = ms === null ? null : ms / 1000;
  lines.push(rttLine(r, given, median), bdpLine(r, given, median));
  if (r.delay) lines.push(`Delay under load: ${delaySentence(r.delay, r.link?.settings ? 2 * r.link.settings.delayMs : null)}`);
  lines.push(...capacityLines(r));
  lines.push(`Limiter: ${x.diagnosis ?? diagnosisText(r) ?? 'unknown (no diagnosis available for this run)'}`);
  const bypass = bypassCaveat(r);
  if (bypass) lines.push(bypass);
  const distanceKm = x.distanceKm ?? (r.distance ? r.distance.meters / 1000 : null);
  if (distanceKm !== null) {
    const km = `${groupDigits(distanceKm)} km`;
    const sum = r.total.streamSumBitsPerSecond;
    const wall = r.total.bitsPerSecond;
    lines.push(`Land Speed Record metric (throughput x ${km}):`);
    lines.push(
      `  per-stream sum: ${sum === null ? 'unknown' : `${(sum / 1e6).toFixed(3)} Mbit/s x ${km} = ${formatBitMetres(bitMetresPerSec(sum, distanceKm))}`}`,
    );
    lines.push(
      `  wall-clock:     ${wall === null ? 'unknown' : `${(wall / 1e6).toFixed(3)} Mbit/s x ${km} = ${formatBitMetres(bitMetresPerSec(wall, distanceKm))}`}`,
    );
  }
  return lines;
}

/** The end-of-run summary. Units: bytes; rates in decimal bit/s (Mbit = 10^6 bit). */
export function formatSummary(r: LonghaulResult, extras: SummaryExtras = {}): string {
  const lines: string[] = [];
  const p = r.params;
  const limit = p.bytes !== null ? `${groupDigits(p.bytes)} bytes` : `${p.seconds} s`;
  lines.push(
    `Longhaul ${r.controller.hostname} -> ${r.responder.hostname} (${r.responder.address}): ${p.streams} ${p.protocol === 'udp' ? 'UDP ' : ''}stream(s), ${p.direction}, ${limit}, ${p.protocol === 'udp' ? `datagrams of ${groupDigits(p.bufferBytes)} B` : `${groupDigits(p.bufferBytes)}-byte buffers`}`,
  );
  const windowLabel = p.protocol === 'udp' ? 'Receive buffer (-w)' : 'Window';
  lines.push(
    `${windowLabel}: ${r.window.requestedBytes === null ? r.window.note : `${groupDigits(r.window.requestedBytes)} bytes requested, ${r.window.note}`}`,
  );
  const omitted = omitText(r);
  if (omitted) lines.push(omitted);
  if (r.pacing) lines.push(`Bitrate (--bitrate, per stream): ${r.pacing.note}`);
  else if (p.bitrateBitsPerSec) lines.push(`Bitrate (--bitrate, per stream): ${bitrateText(p.bitrateBitsPerSec)} asked; how it was applied is unknown`);
  const cc = congestionLine(r);
  if (cc) lines.push(cc);
  const zeroCopy = zeroCopyLine(r);
  if (zeroCopy) lines.push(zeroCopy);
  if (r.mss) lines.push(`MSS: ${r.mss.requestedBytes === null ? r.mss.note : `${groupDigits(r.mss.requestedBytes)} bytes requested, ${r.mss.note}`}`);
  lines.push('');
  lines.push(
    `${'stream'.padEnd(7)}${'from'.padEnd(12)}${'bytes sent'.padStart(16)}${'bytes received'.padStart(16)}${'seconds'.padStart(10)}${'rate (received)'.padStart(17)}`,
  );
  for (const s of r.streams) {
    const err = s.send?.error ?? s.receive?.error;
    // A partial run's stream: the seconds measured and its rate over them, labelled as the total's.
    const shown = shownRate(s);
    lines.push(
      `${String(s.id).padEnd(7)}${s.sender.padEnd(12)}${sentText(shownSent(s), groupDigits).padStart(16)}${groupDigits(s.bytes).padStart(16)}` +
        `${(shown.seconds === null ? 'unknown' : shown.seconds.toFixed(3)).padStart(10)}${formatRate(shown.bitsPerSecond).padStart(17)}` +
        `${s.partialRate ? `  (${partialLabel(s.partialRate)})` : ''}${err ? `  ! ${err.message}` : ''}`,
    );
  }
  lines.push('');
  if (r.directions.controllerToResponder && r.directions.responderToController) {
    lines.push(...totalLines(pathDirectionLabel('controllerToResponder', true), r.directions.controllerToResponder));
    lines.push(...totalLines(pathDirectionLabel('responderToController', true), r.directions.responderToController));
  } else {
    lines.push(...totalLines('Total', r.total));
  }
  lines.push(...formatTcpSummary(r));
  lines.push(...formatCpuLines(r));
  lines.push('');
  lines.push(...pathLines(r, extras));
  const whatIf = formatWhatIf(r, 'terminal');
  if (whatIf.length) lines.push('', ...whatIf);
  const advice = formatAdvice(r);
  if (advice.length) lines.push('', ...advice);
  if (r.partial) {
    lines.push('');
    lines.push(`PARTIAL RESULT: ${r.partialReason ?? 'the run ended early'}`);
    for (const e of r.errors) lines.push(`  ${e.code}: ${e.message}`);
  }
  return lines.join('\n') + '\n';
}
