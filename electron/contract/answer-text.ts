/**
 * The answer, in words: the one place a finding (verdict, case, figures) becomes the lines a person
 * reads first, the same in the terminal, the app, the HTML report and the CSV:
 *
 *   Result: 59.7 kbit/s · window-limited: the emulated window, 8,760 B, allows about 54 kbit/s over the 1.30 s round trip.
 *   Change: the emulated window on vm: 8,760 bytes → at least 650,000 bytes per stream.
 *   Try:    longhaul loopback --delay 650ms --rate 4000000 --slowstart --window 650000
 *
 * Short sentences, one convention per quantity (rates in decimal units, shares as "75 %"). The detail
 * behind them (`--explain`, the app's "Explain") is the diagnosis's sentence and the advice in full.
 */
import type { Advice, AdviceTopic } from './advice.js';
import { pathDirectionLabel } from './direction.js';
import type { DiagnosisCase, Figure, FigureName, Figures } from './finding.js';
import type { Diagnosis, LonghaulResult, PartialRate } from './result.js';
import { rateText } from './partial-text.js';
import { formatJitter, formatLossShare, formatRateShort, formatRtt, formatShare, groupDigits } from './units.js';
import { verdictInline } from './verdict-labels.js';
import type { Door } from './door.js';

/** The answer's parts, each one short line (null: nothing to say there). */
interface Answer {
  /** One per direction that carried data: `rate · verdict: why`. */
  results: string[];
  /** The one change that would help, with its value and the PC it is on. */
  change: string | null;
  /** The command that tries it (terminal only, or an OS command the app has no control for). */
  tryIt: string | null;
}

type Fig = (name: FigureName) => Figure | undefined;

const rate = (f: Figure | undefined): string | null => (f ? formatRateShort(f.value) : null);
const bytes = (f: Figure | undefined): string | null => (f ? `${groupDigits(f.value)} B` : null);
const rtt = (f: Figure | undefined): string | null => (f ? formatRtt(f.value) : null);
const share = (f: Figure | undefined): string | null => (f ? formatShare(f.value) : null);

/**
 * "X allows about R over the T round trip", with what is known of it; a window of several streams is their sum,
 * said per stream. Where the RTT varied so much that window ÷ RTT is no ceiling (note `rtt-varied`), the kernel's
 * count of the time the window held the sender is the figure instead.
 */
function windowWhy(what: string, f: Fig, d: Diagnosis, showWindow = true): string {
  if (d.notes?.includes('rtt-varied')) {
    const held = share(f('rwndShare'));
    return `${what} held the sender back${held ? ` ${held} of its busy time` : ''}`;
  }
  return allows(what, showWindow ? f('window') : undefined, f('streams'), rate(f('windowRate')), rtt(f('rtt')));
}

function allows(what: string, window: Figure | undefined, streams: Figure | undefined, r: string | null, t: string | null): string {
  const n = streams && streams.value > 1 ? streams.value : 1;
  const w = window ? `${what}, ${groupDigits(window.value / n)} B${n > 1 ? ` per stream × ${n}` : ''},` : what;
  if (r && t) return `${w} allows about ${r} over the ${t} round trip`;
  return `${w} held the data in flight`;
}

/** A UDP run's loss and jitter: `0.12 % of 4,245 datagrams lost, jitter 0.044 ms`. */
function udpCounts(f: Fig): string {
  const loss = f('lossRatio');
  const n = f('datagrams');
  const j = f('jitter');
  const lost = loss ? `${formatLossShare(loss.value)} of ${n ? `${groupDigits(n.value)} ` : ''}datagrams lost` : 'loss unknown';
  return j ? `${lost}, jitter ${formatJitter(j.value)}` : lost;
}

/** Where a UDP run's lost datagrams went, as far as the receiving PC's OS says. */
function droppedWhere(f: Fig): string {
  const drops = f('receiverDrops');
  if (!drops) return 'on the path or at the receiver';
  return drops.value === 0 ? 'on the path: the receiving PC dropped none' : `on the path; ${groupDigits(drops.value)} at the receiving PC`;
}

/** Why, in one short phrase per case, from the case's figures. */
const WHY: Record<DiagnosisCase, (f: Fig, d: Diagnosis) => string> = {
  'unknown/nothing-measured': () => 'nothing arrived in this direction',
  'unknown/rtt-unknown': () => 'the round-trip time is unknown, so the limit cannot be told',
  'unknown/emulator-bypassed': () => 'the emulator was bypassed part of the time, so no single limit explains the rate',
  'window-limited/os-receive-buffer': (f, d) => windowWhy("the receiver's window", f, d),
  'window-limited/requested': (f, d) => windowWhy('the window this run asked for', f, d, false),
  'window-limited/emulated-window': (f, d) => windowWhy('the emulated window', f, d),
  'send-buffer-limited/send-buffer': (f) => `the sender's send buffer held it back${share(f('sndbufShare')) ? ` ${share(f('sndbufShare'))} of the time` : ''}`,
  'receiver-limited/app-lagged': () => 'the receiving application read too slowly; its buffer had room for a larger window',
  'receiver-limited/cpu-starved': (f, d) =>
    `the receiver${d.side ? ` (${d.side})` : ''} waited for a CPU core${share(f('readerWaitShare')) ? ` ${share(f('readerWaitShare'))} of the time` : ''}`,
  'congestion-limited/slow-start': () => 'the congestion window was still growing when the run ended',
  'congestion-limited/loss-rate-unknown': () => 'congestion control backed off for loss; the loss rate is unknown',
  'congestion-limited/retransmits-unknown': () => 'the congestion window set the rate; this OS gave no retransmit count',
  'congestion-limited/emulated-slow-start': (f) => `slow start over the ${rtt(f('rtt')) ?? 'long'} round trip took most of the run`,
  'congestion-limited/emulated-loss': () => "the emulated link's modelled loss held congestion control back",
  'loss-limited/random-loss': (f) => {
    const p = f('lossRatio');
    return `loss of ${p ? `about ${Number((p.value * 100).toPrecision(2))} %` : 'unknown size'} caps a loss-based sender near ${rate(f('lossModelRate')) ?? 'this rate'}`;
  },
  'application-limited/sender-idle': (f) =>
    `the sending application left the socket empty${share(f('senderIdleShare')) ? ` ${share(f('senderIdleShare'))} of the time` : ''}`,
  'application-limited/paced': (f, d) =>
    `the senders were paced to ${rate(f('pacedRate')) ?? 'a set rate'}${d.facts?.pacing?.firstBurst ? " (more arrived: the kernel's first burst is unpaced)" : ''}`,
  'cpu-limited/process': (f, d) => `the ${d.side ?? 'busiest'} side's CPU: a thread used ${share(f('cpuShareOfCore')) ?? 'nearly all'} of one core`,
  'cpu-limited/same-pc': (f) => {
    const cores = f('cores');
    const busy = share(f('pcBusyShare'));
    return `both ends ran on this PC and shared its ${cores ? `${cores.value} ` : ''}cores${busy ? ` (${busy} busy)` : ''}`;
  },
  'cpu-limited/unmeasured': () => "copying bytes on this PC's cores is the likely limit (CPU not measured)",
  'link-limited/rate-reached': (f) => `the link's rate${rate(f('linkRate')) ? `, ${rate(f('linkRate'))},` : ''} is reached`,
  'link-limited/standing-queue': () => "the path's bottleneck is full; a larger window would only queue",
  'link-limited/queue-overflow': () => "the path's bottleneck is full and its queue overflowed",
  'link-limited/socket-full': () => 'the sender kept the socket full; the path carried what it can',
  'link-limited/bufferbloat': (f) => `the path is full and its queue adds ${rtt(f('queueing')) ?? 'much'} of delay (bufferbloat)`,
  'emulator-limited/fell-behind': () => 'the link emulator on this PC fell behind, not the emulated link',
  'application-limited/udp-carried': (f) => `the asked ${rate(f('pacedRate')) ?? 'rate'} arrived; ${udpCounts(f)}`,
  'loss-limited/udp-dropped': (f) => `${udpCounts(f)} at the asked ${rate(f('pacedRate')) ?? 'rate'} (${droppedWhere(f)})`,
  'receiver-limited/udp-socket-full': (f, d) =>
    `${udpCounts(f)} at the asked ${rate(f('pacedRate')) ?? 'rate'}: the receiving PC${d.side ? ` (${d.side})` : ''} dropped ${groupDigits(f('receiverDrops')?.value ?? 0)} of them itself, its socket buffer full`,
  'cpu-limited/udp-sender-short': (f, d) =>
    `the sending PC${d.side ? ` (${d.side})` : ''} sent ${formatLossShare(f('senderShortShare')?.value ?? 0)} less than the asked ${rate(f('pacedRate')) ?? 'rate'}`,
  'mss-limited/small-segments': (f) => `segments of ${bytes(f('mss')) ?? 'few bytes'}, far below the ${bytes(f('pathMss')) ?? 'size'} the path carries`,
};

/** The short name of what an advice topic changes, for the Change line. */
const TOPIC_WORDS: Record<Exclude<AdviceTopic, 'application'>, string> = {
  'receive-window': 'the receive window',
  'send-buffer': 'the send buffer',
  'window-scaling': 'window scaling',
  mss: 'the MSS',
  'longhaul-request': "the run's window",
  'link-emulator': 'the emulated link',
  path: 'the path',
  'congestion-control': 'the congestion control',
  cpu: 'the CPU',
  run: "the run's length",
};

/** Why, in one short phrase from the finding's case and figures; null for a result saved before cases existed. */
export function whyOf(d: Diagnosis): string | null {
  const figures: Figures = d.figures ?? {};
  return d.case ? WHY[d.case]((n) => figures[n], d) : null;
}

/** The result line of one finding: the rate (a partial run's over the seconds measured, labelled so), the verdict and why. */
export function resultLine(d: Diagnosis, bitsPerSecond: number | null, partialRate?: PartialRate): string {
  const why = whyOf(d);
  return `${rateText({ bitsPerSecond, seconds: null, partialRate })} · ${verdictInline(d.verdict)}${why ? `: ${why}` : ''}`;
}

/** The advice that answers the first direction with a verdict (the one change to name), with that direction's case. */
function firstAdvice(r: LonghaulResult): { a: Advice; c: DiagnosisCase | undefined } | null {
  const d = (r.diagnosis ?? []).find((x) => x.verdict !== 'unknown');
  const list = r.advice ?? [];
  const a =
    (d ? (list.find((x) => x.direction === d.direction && x.verdict === d.verdict) ?? list.find((x) => x.direction === d.direction)) : undefined) ?? list[0];
  return a ? { a, c: d?.case } : null;
}

/** Through the link emulator, what its advice changes is named by the case (its advice topic is the emulator's for all). */
const EMULATED_SUBJECT: Partial<Record<DiagnosisCase, string>> = {
  'window-limited/emulated-window': 'the emulated window',
  'link-limited/rate-reached': 'the emulated rate',
  'congestion-limited/emulated-loss': 'the emulated loss',
  'emulator-limited/fell-behind': 'the link emulator',
};

/**
 * The app names its own controls, not flags or settings' long names: what to do, on which PC. A run paced
 * on the Test step is changed there; a window sized from the path's rate needs that rate first.
 */
const APP_CHANGE: Record<AdviceTopic, (a: Advice, c: DiagnosisCase | undefined) => string> = {
  'receive-window': (a) => `raise the receive window on ${a.hostname}`,
  'send-buffer': (a) => `raise the send buffer on ${a.hostname}`,
  'window-scaling': (a) => `turn TCP window scaling on at ${a.hostname}`,
  mss: (a) => `check the segment size (MSS) on ${a.hostname}`,
  application: (a, c) =>
    c === 'application-limited/paced'
      ? 'clear Bitrate per stream on the Test step'
      : c === 'application-limited/udp-carried'
        ? 'raise Bitrate per stream on the Test step to find where loss begins'
        : c === 'loss-limited/udp-dropped'
          ? 'lower Bitrate per stream on the Test step to find the rate carried without loss'
          : c === 'receiver-limited/udp-socket-full'
            ? `raise Receive buffer per stream on the Test step, or free CPU on ${a.hostname}`
            : `make the sending program on ${a.hostname} write more at a time`,
  'longhaul-request': () => 'ask for a bigger window on the Test step',
  'link-emulator': (_a, c) => `change ${(c ? EMULATED_SUBJECT[c] : undefined) ?? 'the emulated link'} on the Link step`,
  path: () => 'the path is the limit',
  'congestion-control': (a) => `change the congestion control on ${a.hostname}`,
  cpu: (a) => `free CPU on ${a.hostname}`,
  run: () => 'run longer',
};

/** Advice that sizes a window from the path's rate: without the rate the needed value is a per-Mbit/s formula. */
const WINDOW_TOPICS: readonly AdviceTopic[] = ['receive-window', 'send-buffer', 'longhaul-request'];

/** The Test step's ramp control, as the app's change names it (UDP, one direction: a ramp finds one direction's rate). */
const APP_RAMP = 'tick "Find the rate the path carries" on the Test step: a UDP ramp from this Bitrate finds the highest rate carried';

function appChangeLine(r: LonghaulResult, a: Advice, c: DiagnosisCase | undefined): string {
  if ((c === 'application-limited/udp-carried' || c === 'loss-limited/udp-dropped') && r.params.direction !== 'bidir' && r.params.bitrateBitsPerSec)
    return APP_RAMP;
  const what = APP_CHANGE[a.topic](a, c);
  if (
    c === 'application-limited/paced' ||
    c === 'application-limited/udp-carried' ||
    c === 'loss-limited/udp-dropped' ||
    c === 'receiver-limited/udp-socket-full'
  )
    return what;
  if (sizeUnknown(r, a)) return `${what} (to size it, give the path's rate on the Test step)`;
  return `${what}: ${a.neededValue}`;
}

/** A window sized from the path's rate cannot be sized without it: then the change is to measure the path first. */
function sizeUnknown(r: LonghaulResult, a: Advice): boolean {
  return WINDOW_TOPICS.includes(a.topic) && !r.pathRate && !r.link?.settings;
}

function subjectOf(a: Advice, c: DiagnosisCase | undefined): string {
  if (c === 'application-limited/udp-carried' || c === 'loss-limited/udp-dropped') return 'the UDP rate (-b, per stream)';
  if (c === 'receiver-limited/udp-socket-full') return "the receiving socket's buffer (-w, per stream)";
  if (a.topic === 'application') return c?.startsWith('receiver-limited/') ? 'the receiving application' : 'the sending application';
  return (a.topic === 'link-emulator' && c ? EMULATED_SUBJECT[c] : undefined) ?? TOPIC_WORDS[a.topic];
}

function changeLine(r: LonghaulResult, a: Advice, c: DiagnosisCase | undefined): string {
  const where = a.topic === 'path' ? '' : ` on ${a.thisPc ? 'this PC' : a.hostname}`;
  const now = a.currentValue ? `now ${a.currentValue}; ` : '';
  if (sizeUnknown(r, a)) return `${subjectOf(a, c)}${where}: ${now}its size follows from the path's rate, so measure that first`;
  return `${subjectOf(a, c)}${where}: ${a.currentValue ? `${a.currentValue} → ` : ''}${a.neededValue}`;
}

/** The command that tries the change, for the door; null where none does. */
function tryLine(r: LonghaulResult, a: Advice, door: Door): string | null {
  // An iperf3 server is tried again as one, wherever it is (a loopback run has no iperf3 in it).
  const iperf3 = r.writtenBy === 'controller' && r.responder.software.startsWith('iperf3');
  const base = iperf3 ? `longhaul run --iperf3 ${r.responder.address}` : r.cpu?.samePc === true ? 'longhaul loopback' : `longhaul run ${r.responder.address}`;
  if (sizeUnknown(r, a)) return door === 'app' ? null : `${base} --capacity`;
  if (a.command) return `${a.command}${a.thisPc ? '' : ` (on ${a.hostname})`}`;
  if (door === 'app') return null;
  if (a.longhaulCommand) return a.longhaulCommand;
  if (a.runFlags === undefined) return null;
  return `${base}${a.runFlags ? ` ${a.runFlags}` : ''}`;
}

/** The answer of a result: one result line per direction, the change and the command. */
export function answerOf(r: LonghaulResult, door: Door): Answer {
  const ds = r.diagnosis ?? [];
  const both = ds.length > 1;
  const results = ds.map((d) => {
    const total = r.directions[d.direction] ?? (both ? null : r.total);
    return `${both ? `${pathDirectionLabel(d.direction, true)}: ` : ''}${resultLine(d, total?.bitsPerSecond ?? null, total?.partialRate)}`;
  });
  if (!results.length) results.push(`${rateText(r.total)} · limit unknown: no diagnosis for this run`);
  const first = firstAdvice(r);
  const change = !first ? null : door === 'app' ? appChangeLine(r, first.a, first.c) : changeLine(r, first.a, first.c);
  return { results, change, tryIt: first ? tryLine(r, first.a, door) : null };
}

/** The answer as labelled lines for the terminal, the HTML report and the console log. */
export function answerLines(r: LonghaulResult, door: Door): string[] {
  const a = answerOf(r, door);
  return [...a.results.map((x) => `Result: ${x}.`), ...(a.change ? [`Change: ${a.change}.`] : []), ...(a.tryIt ? [`Try:    ${a.tryIt}`] : [])];
}
