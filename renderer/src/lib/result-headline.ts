/**
 * The one answer at the top of Results: the run's rate (the wall-clock
 * aggregate, named), what share of the link it is where the link's rate is
 * known, the limiter verdict and the first thing to change. Nothing here is a
 * new rule: the share uses the payload model of contract/wire.ts and leaves out
 * a rate the run beat (path-math.ts, as the verdict and the what-if do); the
 * verdict is the result's diagnosis; its why, the change and the command are the answer's words
 * (electron/contract/answer-text.ts, the same as the terminal's and the HTML report's).
 * One RTT is named: the emulated link's when the run went through it (the
 * kernels' then only spans the local hop to the emulator, labelled as such).
 */
import { answerOf, whyOf } from '../../../electron/contract/answer-text.js';
import { rateContradicted } from '../../../electron/contract/path-math.js';
import { partialLabel, shownRate } from '../../../electron/contract/partial-text.js';
import type { Diagnosis, LimiterVerdict, LonghaulResult } from '../../../electron/contract/result.js';
import { verdictInline } from '../../../electron/contract/verdict-labels.js';
import { DEFAULT_MSS_BYTES, payloadFraction, udpPayloadFraction } from '../../../electron/contract/wire.js';

interface Headline {
  /** The wall-clock aggregate (all bytes / first byte to last), bit/s; a partial run's rate over the seconds measured; null when unknown. */
  bitsPerSecond: number | null;
  /** A partial run: the rate's label, `partial: over the 1.0 s measured` (contract/partial-text.ts); null in a complete run. */
  partialLabel: string | null;
  /** The measured rate against the most the link carries, where the link's rate is known. */
  share: { percent: number; capacityBitsPerSec: number; of: 'emulated link' | 'path rate given' } | null;
  /** Why there is no share: no rate known, a rate the run beat (not this path's), or both directions at once. */
  noShare: { why: 'unknown' | 'beaten' | 'both ways'; statedBitsPerSec: number | null } | null;
  /** The limiter, in words ("window-limited"), or null when the result has no diagnosis. */
  verdict: string | null;
  verdictCode: LimiterVerdict | null;
  /** Why, in the answer's words ("the receiver's window, 8,760 B, allows about 54 kbit/s …"), or null without a case. */
  why: string | null;
  /** The first change the advice names ("raise the receive window on lab-7: at least 650,000 bytes"), or null. */
  change: string | null;
  /** The OS command that makes it, where the app has no control for it (a sysctl, netsh), or null. */
  tryIt: string | null;
  /** The one RTT named in the summary, ms, and what it is; null when none was measured. */
  rtt: { ms: number; what: string } | null;
  /** Through the emulator: the kernels' RTT figures (per-stream table) are of the local hop to it, not of this link. */
  localHop: boolean;
}

/** The diagnosis the headline speaks for: the first with a verdict, else the first. */
function mainDiagnosis(r: LonghaulResult): Diagnosis | null {
  const all = r.diagnosis ?? [];
  return all.find((d) => d.verdict !== 'unknown') ?? all[0] ?? null;
}

function shareOf(r: LonghaulResult, measured: number | null): Pick<Headline, 'share' | 'noShare'> {
  const link = r.link?.settings ?? null;
  const stated = link?.rateBitsPerSec ?? r.pathRate?.bitsPerSecond ?? null;
  const none = (why: 'unknown' | 'beaten' | 'both ways') => ({ share: null, noShare: { why, statedBitsPerSec: stated } });
  // Both ways at once: the total is two directions over a link rated each way; the details give each.
  if (r.directions.controllerToResponder && r.directions.responderToController) return none('both ways');
  if (measured === null || stated === null || stated <= 0) return none('unknown');
  if (rateContradicted(stated, measured)) return none('beaten');
  const mss = link?.mssBytes ?? r.mss?.sendMssBytes?.max ?? DEFAULT_MSS_BYTES;
  // UDP: each datagram of -l bytes carries 42 header bytes on the wire (the emulator's UDP relay counts the same).
  const share = r.params.protocol === 'udp' ? udpPayloadFraction(r.params.bufferBytes) : payloadFraction(mss);
  const capacityBitsPerSec = stated * share;
  return {
    share: { percent: (measured / capacityBitsPerSec) * 100, capacityBitsPerSec, of: link ? 'emulated link' : 'path rate given' },
    noShare: null,
  };
}

/** The headline of a result. */
export function resultHeadline(r: LonghaulResult): Headline {
  const bitsPerSecond = shownRate(r.total).bitsPerSecond;
  const d = mainDiagnosis(r);
  // Through the emulator the diagnosis already uses the emulated RTT (analysis/emulated-diagnosis.ts); named so here.
  const diagnosedMs = d?.numbers.rttSeconds ? d.numbers.rttSeconds * 1000 : null;
  const emulatedMs = r.link?.settings && r.link.settings.delayMs > 0 ? r.link.settings.delayMs * 2 : null;
  const rtt =
    emulatedMs !== null
      ? { ms: emulatedMs, what: "the emulated link's round trip" }
      : diagnosedMs !== null
        ? { ms: diagnosedMs, what: 'round trip measured by the sending PC while the data flowed' }
        : null;
  return {
    bitsPerSecond,
    partialLabel: r.total.partialRate ? partialLabel(r.total.partialRate) : null,
    ...shareOf(r, bitsPerSecond),
    verdict: d ? verdictInline(d.verdict) : null,
    verdictCode: d?.verdict ?? null,
    why: d ? whyOf(d) : null,
    ...(({ change, tryIt }) => ({ change, tryIt }))(answerOf(r, 'app')),
    rtt,
    localHop: r.link !== undefined,
  };
}
