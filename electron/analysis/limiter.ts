/**
 * Why a direction's throughput is what it is, as data (verdict, case, figures, notes, facts): the verdict
 * rules (verdicts/, one file each) asked in order over the inputs (limiter-inputs.ts). The detail's
 * words are rendered from that data by contract/detail-text/, never written here.
 *
 * The model: a TCP sender has at most min(receive window, cwnd, send buffer) bytes in flight per
 * round trip, so throughput ≤ window × 8 / RTT. Whichever bound sets the measured rate is the
 * limit; loss caps a loss-based sender near Mathis's estimate; a CPU near one core caps every
 * bound; when no bound is near the rate, the sender either kept the socket full (the path's rate
 * is the limit, with the queueing delay it adds) or not (the application is). Unknown stays unknown.
 */
import { withDetail } from '../contract/detail-text/index.js';
import { fig, type FindingFacts, type Figures, type FindingNote } from '../contract/finding.js';
import type { Diagnosis, DiagnosisFinding } from '../contract/result.js';
import { rateContradicted } from '../contract/path-math.js';
import type { LimiterInputs } from './limiter-inputs.js';
import { applicationRule } from './verdicts/application-limited.js';
import { congestionRule } from './verdicts/congestion-limited.js';
import { isLocalPath, share, verdictContext, type RuleVerdict, type VerdictContext } from './verdicts/context.js';
import { cpuLikelyRule, cpuRule, pcCpuRule } from './verdicts/cpu-limited.js';
import { linkFinding } from './verdicts/link-limited.js';
import { lossNote, lossRatio, lossRule } from './verdicts/loss-limited.js';
import { receiverStarvedRule } from './verdicts/receiver-starved.js';
import { sendBufferRule } from './verdicts/send-buffer-limited.js';
import { windowRule } from './verdicts/window-limited.js';

function numbersOf(i: LimiterInputs): Diagnosis['numbers'] {
  return {
    measuredBitsPerSecond: i.measuredBitsPerSecond,
    rttSeconds: i.rttSeconds,
    minRttSeconds: i.minRttSeconds ?? null,
    queueingSeconds: i.queueingSeconds ?? null,
    windowBytes: i.windowBytes,
    windowBitsPerSecond: i.windowBytes !== null && i.rttSeconds ? (i.windowBytes * 8) / i.rttSeconds : null,
    cwndBytes: i.cwndBytes,
    cwndBitsPerSecond: i.cwndBytes !== null && i.rttSeconds ? (i.cwndBytes * 8) / i.rttSeconds : null,
    retransSegments: i.retransSegments,
    lossRatio: lossRatio(i),
    rwndLimitedShare: share(i.rwndLimitedSeconds, i.busySeconds),
    sndbufLimitedShare: share(i.sndbufLimitedSeconds, i.busySeconds),
    windowScale: i.windowScale,
  };
}

/**
 * The figures every finding of a direction carries where known: the rate, the RTTs, the windows and
 * what they allow, loss. A rule adds its own (a CPU share, a model rate) beside these.
 */
function commonFigures(i: LimiterInputs, n: Diagnosis['numbers'], streams: number): Figures {
  const f: Figures = {};
  const put = (name: keyof Figures, v: number | null | undefined, unit: Parameters<typeof fig>[1], source: Parameters<typeof fig>[2]): void => {
    if (v != null && Number.isFinite(v)) f[name] = fig(v, unit, source);
  };
  const emulated = i.missingReason?.startsWith('the emulated link') === true;
  const tcp = emulated ? 'emulated' : 'tcp_info';
  put('measured', n.measuredBitsPerSecond, 'bit/s', 'measured');
  put('rtt', n.rttSeconds, 's', tcp);
  put('minRtt', n.minRttSeconds, 's', 'tcp_info');
  put('queueing', n.queueingSeconds, 's', 'tcp_info');
  put('window', n.windowBytes, 'B', tcp);
  put('windowRate', n.windowBitsPerSecond, 'bit/s', 'model');
  put('cwnd', n.cwndBytes, 'B', emulated ? 'model' : 'tcp_info');
  put('cwndRate', n.cwndBitsPerSecond, 'bit/s', 'model');
  put('retransmits', n.retransSegments, 'count', emulated ? 'emulated' : 'tcp_info');
  put('lossRatio', n.lossRatio, 'share', 'model');
  put('rwndShare', n.rwndLimitedShare, 'share', 'tcp_info');
  put('sndbufShare', n.sndbufLimitedShare, 'share', 'tcp_info');
  put('linkRate', i.linkBitsPerSecond, 'bit/s', emulated ? 'emulated' : 'given');
  put('transferSeconds', i.transferSeconds, 's', 'measured');
  put('streams', streams, 'count', 'measured');
  return f;
}

/** What every finding of a direction carries beside its figures where known: the sender, how its OS counted, a local path. */
function commonFacts(i: LimiterInputs): FindingFacts {
  const min = i.minRttSeconds ?? null;
  return {
    ...(i.senderSide ? { senderSide: i.senderSide } : {}),
    ...(i.retransEstimated ? { retransEstimated: true } : {}),
    ...(i.congestionControl ? { congestionControl: i.congestionControl } : {}),
    ...(min !== null && isLocalPath(min) ? { localPath: true } : {}),
    ...(i.missingReason ? { missingReason: i.missingReason } : {}),
  };
}

/** What a rule reads beside the context: the sending streams, and whether the user set the window. */
interface RuleInputs {
  streams: number;
  windowRequested: boolean;
}

/**
 * The whole "why" decision once the rate and the RTT are known: the rules in order, the first that applies
 * decides (each rule's thresholds live in its own file under verdicts/). Before these, diagnosis.ts takes a
 * --bitrate pacing and the link emulator's runs, and diagnoseLimiter a stated link rate the run reached;
 * after them, a small MSS may replace an application or congestion verdict (mss-verdict.ts).
 */
const RULES: readonly { name: string; rule: (c: VerdictContext, x: RuleInputs) => RuleVerdict | null }[] = [
  // A starved reader closes the window and delays the ACKs: it goes first, or its symptoms would be named instead.
  { name: "the receiver's reader starved of CPU", rule: (c) => receiverStarvedRule(c) },
  // So does a receiver sharing one busy PC with its sender (loopback: the window fills while the reader waits for
  // a core), unless the user set the window, which then may well be the limit.
  { name: "both ends on this PC's cores (no --window)", rule: (c, x) => (x.windowRequested ? null : pcCpuRule(c)) },
  { name: 'the receive window (or a standing queue behind it, or a lagging receiver)', rule: (c) => windowRule(c) },
  { name: 'the send buffer', rule: (c) => sendBufferRule(c) },
  { name: 'a process or data thread near one core', rule: (c) => cpuRule(c) },
  { name: "both ends on this PC's cores", rule: (c) => pcCpuRule(c) },
  { name: 'packet loss (Mathis)', rule: (c, x) => lossRule(c, x.streams) },
  { name: 'the congestion window (or the bottleneck it filled)', rule: (c) => congestionRule(c) },
  { name: 'the sending application', rule: (c) => applicationRule(c) },
  { name: 'the CPU, likely but unmeasured', rule: (c) => cpuLikelyRule(c) },
  { name: 'the path', rule: (c) => linkFinding(c, 'link-limited/socket-full', 'socket-full') },
];

/** The first rule that applies; the last (the path) always does. */
function decide(c: VerdictContext, x: RuleInputs): RuleVerdict {
  for (const { rule } of RULES) {
    const v = rule(c, x);
    if (v) return v;
  }
  throw new Error('the last rule (the path) always applies');
}

/** A rule's answer with the loss note, where loss did not set the rate. */
function withLossNote(i: LimiterInputs, v: RuleVerdict): RuleVerdict {
  if (v.verdict === 'loss-limited') return v;
  const loss = lossNote(i, v.quotesRetransmits === true);
  return loss ? { ...v, notes: [...(v.notes ?? []), loss] } : v;
}

/** The finding from the inputs, its detail rendered by contract/detail-text/; `streams` sending streams (for the loss estimate). */
export function diagnoseLimiter(i: LimiterInputs, streams = 1): Omit<DiagnosisFinding, 'direction'> {
  const numbers = numbersOf(i);
  const common = commonFigures(i, numbers, Math.max(1, streams));
  const facts = commonFacts(i);
  const finding = (v: RuleVerdict): Omit<DiagnosisFinding, 'direction'> => {
    const f = { ...facts, ...v.facts };
    return withDetail({
      verdict: v.verdict,
      case: v.case,
      figures: { ...common, ...v.figures },
      ...(v.side ? { side: v.side } : {}),
      ...(v.notes?.length ? { notes: v.notes } : {}),
      ...(Object.keys(f).length ? { facts: f } : {}),
      numbers,
    });
  };
  const measured = i.measuredBitsPerSecond;
  if (measured === null || measured <= 0) return finding({ verdict: 'unknown', case: 'unknown/nothing-measured' });
  if (i.linkBitsPerSecond && rateContradicted(i.linkBitsPerSecond, measured)) {
    const without = diagnoseLimiter({ ...i, linkBitsPerSecond: null }, streams);
    const notes: FindingNote[] = [...(without.notes ?? []), 'stated-rate-contradicted'];
    const figures = { ...without.figures, statedLinkRate: fig(i.linkBitsPerSecond, 'bit/s', 'given') };
    return withDetail({ ...without, figures, notes });
  }
  const c = verdictContext(i, numbers);
  if (i.linkBitsPerSecond && measured >= 0.8 * i.linkBitsPerSecond) {
    const v: RuleVerdict = c
      ? linkFinding(c, 'link-limited/rate-reached', 'rate-reached')
      : { verdict: 'link-limited', case: 'link-limited/rate-reached', facts: { linkVia: 'rate-reached' } };
    return finding(withLossNote(i, v));
  }
  if (!c) return finding({ verdict: 'unknown', case: 'unknown/rtt-unknown' });
  const v = decide(c, { streams: Math.max(1, streams), windowRequested: i.windowRequestedBytes != null });
  return finding(withLossNote(i, v));
}
