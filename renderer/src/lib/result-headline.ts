/**
 * The one answer at the top of Results: the run's rate (the wall-clock
 * aggregate, named), what share of the link it is where the link's rate is
 * known, the limiter verdict and the first thing to change. Nothing here is a
 * new rule: the share uses the payload model of contract/wire.ts and leaves out
 * a rate the run beat (path-math.ts, as the verdict and the what-if do); the
 * verdict is the result's diagnosis; the change is the result's first advice.
 * One RTT is named: the emulated link's when the run went through it (the
 * kernels' then only spans the local hop to the emulator, labelled as such).
 */
import type { Advice, AdviceTopic } from '../../../electron/contract/advice.js';
import { rateContradicted } from '../../../electron/contract/path-math.js';
import type { Diagnosis, LimiterVerdict, LonghaulResult } from '../../../electron/contract/result.js';
import { verdictInline } from '../../../electron/contract/verdict-labels.js';
import { DEFAULT_MSS_BYTES, payloadFraction } from '../../../electron/contract/wire.js';

interface Headline {
  /** The wall-clock aggregate (all bytes / first byte to last), bit/s; null when unknown. */
  bitsPerSecond: number | null;
  /** The measured rate against the most the link carries, where the link's rate is known. */
  share: { percent: number; capacityBitsPerSec: number; of: 'emulated link' | 'path rate given' } | null;
  /** Why there is no share: no rate known, a rate the run beat (not this path's), or both directions at once. */
  noShare: { why: 'unknown' | 'beaten' | 'both ways'; statedBitsPerSec: number | null } | null;
  /** The limiter, in words ("window-limited"), or null when the result has no diagnosis. */
  verdict: string | null;
  verdictCode: LimiterVerdict | null;
  /** The first change the advice names ("raise the receive window on lab-7: at least 650,000 bytes"), or null. */
  change: string | null;
  /** The one RTT named in the summary, ms, and what it is; null when none was measured. */
  rtt: { ms: number; what: string } | null;
  /** Through the emulator: the kernels' RTT figures (per-stream table) are of the local hop to it, not of this link. */
  localHop: boolean;
}

/** What the advice's topic asks a person to do, before its needed value. */
const TOPIC_WORDS: Record<AdviceTopic, (a: Advice) => string> = {
  'receive-window': (a) => `raise the receive window on ${a.hostname}`,
  'send-buffer': (a) => `raise the send buffer on ${a.hostname}`,
  'window-scaling': (a) => `turn TCP window scaling on at ${a.hostname}`,
  mss: (a) => `check the segment size (MSS) on ${a.hostname}`,
  // A run paced by --bitrate (advise.ts's pacedLine) is changed on the Test step, not in a program.
  application: (a) =>
    a.setting.includes('--bitrate') ? 'clear Bitrate per stream on the Test step' : `make the sending program on ${a.hostname} write more at a time`,
  'longhaul-request': () => 'ask for a bigger window on the Test step',
  'link-emulator': (a) => `change ${shortSetting(a.setting)}`,
  path: () => 'the path is the limit',
  'congestion-control': (a) => `change the congestion control on ${a.hostname}`,
  cpu: (a) => `free CPU on ${a.hostname}`,
  run: () => 'run longer',
};

/** Advice that sizes a window from the path's rate: without the rate the needed value is a per-Mbit/s formula. */
const WINDOW_TOPICS: readonly AdviceTopic[] = ['receive-window', 'send-buffer', 'longhaul-request'];

/** "the emulated window (loopback's --window: …)" → "the emulated window": the words before the parenthesis. */
function shortSetting(setting: string): string {
  const cut = setting.indexOf(' (');
  return cut > 0 ? setting.slice(0, cut) : setting;
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
  const capacityBitsPerSec = stated * payloadFraction(mss);
  return {
    share: { percent: (measured / capacityBitsPerSec) * 100, capacityBitsPerSec, of: link ? 'emulated link' : 'path rate given' },
    noShare: null,
  };
}

function changeOf(r: LonghaulResult, d: Diagnosis | null): string | null {
  const list = r.advice ?? [];
  const a = (d ? list.find((x) => x.direction === d.direction && x.verdict === d.verdict) : undefined) ?? list[0];
  if (!a) return null;
  // A size needs the path's rate; without one the advice's needed value is a formula, said in the details.
  if (WINDOW_TOPICS.includes(a.topic) && !r.pathRate && !r.link?.settings)
    return `${TOPIC_WORDS[a.topic](a)} (to size it, give the path's rate on the Test step)`;
  return `${TOPIC_WORDS[a.topic](a)}: ${a.neededValue}`;
}

/** The headline of a result. */
export function resultHeadline(r: LonghaulResult): Headline {
  const bitsPerSecond = r.total.bitsPerSecond;
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
    ...shareOf(r, bitsPerSecond),
    verdict: d ? verdictInline(d.verdict) : null,
    verdictCode: d?.verdict ?? null,
    change: changeOf(r, d),
    rtt,
    localHop: r.link !== undefined,
  };
}
