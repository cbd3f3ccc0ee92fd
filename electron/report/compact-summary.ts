/**
 * The default end-of-run block of `run` and `loopback`, as compact as iperf3's: after the interval rows
 * (printed live by cli/live-progress.ts) a separator, one row per stream and a SUM row per direction
 * (bytes sent and received, the time the data took, the rate, the senders' retransmits), one CPU line in
 * iperf3's convention, then the answer (contract/answer-text.ts): the rate and verdict, the one change,
 * the command to try it. Nothing unknown is printed here; `--explain` prints the whole detail
 * (summary-block.ts).
 */
import { zeroCopyLine } from '../contract/send-path-text.js';
import { answerLines } from '../contract/answer-text.js';
import { pathDirectionLabel } from '../contract/direction.js';
import type { LonghaulResult, Side, StreamResult, TotalResult } from '../contract/result.js';
import { shownRate } from '../contract/partial-text.js';
import { formatBytes, formatClock, formatJitter, formatLostTotal, formatRate, formatRtt, groupDigits } from '../contract/units.js';
import type { UdpCounts } from '../contract/udp.js';
import { capacityLines } from '../contract/capacity.js';
import { omitText } from '../contract/omit-text.js';
import { congestionLine } from '../contract/congestion-text.js';
import { bitMetresPerSec, formatBitMetres } from './path-metrics.js';
import { sentText, shownSent, sumShownSent, type ShownSent } from '../contract/sent-bytes.js';

/** iperf3's separator between the interval rows and the totals. */
const SEPARATOR = '- - - - - - - - - - - - - - - - - - - - - - - - -';
/** A run that took this much longer than asked is told why (the last window's round trip, queued bytes draining). */
const OVERRUN_FACTOR = 1.2;
const OVERRUN_SECONDS = 0.5;

/** The senders' retransmits of one stream: its last cumulative reading; null when the OS gave none. */
function retransOf(s: StreamResult): number | null {
  return s.send?.tcp?.at(-1)?.totalRetransSegments ?? null;
}

/** Through the link emulator the kernels' counts are the local hop's, not the emulated link's: none is shown. */
function pathRetrans(r: LonghaulResult): (s: StreamResult) => number | null {
  return r.link ? () => null : retransOf;
}

/** A row's last cells: the senders' retransmits (TCP), or jitter and lost/total datagrams (UDP, as iperf3's). */
type Tail = string;

/** A row's time span: from its first to its last byte, `from` seconds after the start (later than 0 after -O). */
function row(id: string, from: number, seconds: number | null, sent: ShownSent | null, received: number, bps: number | null, tail: Tail): string {
  const secs = seconds === null ? '' : `${formatClock(from)}-${formatClock(from + seconds)} s`;
  return `[${id.padStart(3)}] ${secs.padEnd(13)}${(sent === null ? '' : sentText(sent, formatBytes)).padStart(10)}${formatBytes(received).padStart(10)}${formatRate(bps).padStart(15)}${tail}`;
}

function retrTail(retrans: number | null): Tail {
  return (retrans === null ? '' : String(retrans)).padStart(7);
}

/** iperf3's UDP cells: `0.044 ms  0/85 (0 %)`; blank where the receiver's counts are missing. */
function udpTail(c: UdpCounts | undefined): Tail {
  if (!c) return '';
  const expected = c.lost + c.datagrams;
  const jitter = c.jitterMs === null ? '' : formatJitter(c.jitterMs / 1e3);
  return `${jitter.padStart(11)}${formatLostTotal(c.lost, expected).padStart(22)}`;
}

function sum(xs: (number | null)[]): number | null {
  return xs.some((x) => x === null) ? null : xs.reduce<number>((a, x) => a + (x ?? 0), 0);
}

/** Rows of one direction's streams, with a SUM row when there are several. */
function directionRows(r: LonghaulResult, sender: Side): string[] {
  const streams = r.streams.filter((s) => s.sender === sender);
  // After -O the received bytes and times are the counted span's; the sender's count covers the whole run, so it is left out.
  const omitted = (r.params.omitSeconds ?? 0) > 0;
  const from = omitted ? (r.params.omitSeconds ?? 0) : 0;
  const sentOf = (s: StreamResult): ShownSent | null => (omitted ? null : shownSent(s));
  const retr = pathRetrans(r);
  const udp = r.params.protocol === 'udp';
  const tailOf = (s: StreamResult): Tail => (udp ? udpTail(s.udp) : retrTail(retr(s)));
  // A partial run's rows give the rate over the seconds measured, which the answer line labels (contract/partial-text.ts).
  const rowOf = (id: string, x: StreamResult | TotalResult, sent: ShownSent | null, tail: Tail): string => {
    const shown = shownRate(x);
    return row(id, from, shown.seconds, sent, x.bytes, shown.bitsPerSecond, tail);
  };
  const lines = streams.map((s) => rowOf(String(s.id), s, sentOf(s), tailOf(s)));
  const dir = sender === 'controller' ? 'controllerToResponder' : 'responderToController';
  const t = r.directions[dir];
  const sumTail = udp ? udpTail(t?.udp) : retrTail(sum(streams.map(retr)));
  if (streams.length > 1 && t) lines.push(rowOf('SUM', t, omitted ? null : sumShownSent(streams.map(sentOf)), sumTail));
  return lines;
}

/** One CPU line, percent of one core as iperf3 counts it; null when neither side measured. */
function cpuLine(r: LonghaulResult): string | null {
  const parts = (['controller', 'responder'] as Side[]).flatMap((side) => {
    const c = r.cpu?.[side];
    if (!c) return [];
    const sends = r.streams.some((s) => s.sender === side);
    const receives = r.streams.some((s) => s.sender !== side);
    // Both ends send and receive in a --bidir run: each is named by its side instead.
    const role = sends && receives ? side : sends ? 'sender' : 'receiver';
    return [`${role} ${(c.shareOfOneCore * 100).toFixed(1)} %`];
  });
  return parts.length ? `CPU (percent of one core, as iperf3): ${parts.join(', ')}` : null;
}

/** Why the data took longer than asked, when it did by more than noise; null otherwise. */
function overrunLine(r: LonghaulResult): string | null {
  const asked = r.params.bytes === null ? r.params.seconds : null;
  const took = r.total.seconds;
  if (asked === null || took === null || took <= asked * OVERRUN_FACTOR + OVERRUN_SECONDS) return null;
  const rtt = (r.diagnosis ?? []).map((d) => d.figures?.rtt?.value).find((x): x is number => x !== undefined) ?? null;
  const rttWords = rtt !== null ? ` (one round trip: ${formatRtt(rtt)})` : '';
  return `Took ${took.toFixed(1)} s of the ${asked} s asked: bytes already written drained at the path's pace after the senders stopped${rttWords}.`;
}

/** Interval rows of 0 B are expected when one round trip is longer than an interval: said once. */
function slowIntervalsLine(r: LonghaulResult): string | null {
  const rtt = (r.diagnosis ?? []).map((d) => d.figures?.rtt?.value).find((x): x is number => x !== undefined) ?? null;
  if (rtt === null || rtt < r.params.intervalSeconds) return null;
  return `One round trip (${formatRtt(rtt)}) is longer than the ${r.params.intervalSeconds} s interval: an interval with no window arriving reads 0 B.`;
}

/**
 * What the user asked for by flag and the OS did not simply take: a window not applied, the MSS asked
 * (taken or refused), the congestion control asked and what each end used, the pacing asked.
 */
function askedLines(r: LonghaulResult): string[] {
  const lines: string[] = [];
  if (r.window.requestedBytes !== null && !r.window.applied)
    lines.push(`${r.params.protocol === 'udp' ? 'Receive buffer (-w)' : 'Window'}: ${groupDigits(r.window.requestedBytes)} bytes asked, ${r.window.note}`);
  if (r.mss && r.mss.requestedBytes !== null) lines.push(`MSS: ${groupDigits(r.mss.requestedBytes)} bytes asked, ${r.mss.note}`);
  const cc = congestionLine(r);
  if (cc) lines.push(cc);
  if (r.pacing) lines.push(`Bitrate (--bitrate, per stream): ${r.pacing.note}`);
  const zeroCopy = zeroCopyLine(r);
  if (zeroCopy) lines.push(zeroCopy);
  return lines;
}

/** The Land Speed Record metric when a distance was given (`--distance-km`), on the wall-clock rate. */
function distanceLine(r: LonghaulResult): string | null {
  const km = r.distance ? r.distance.meters / 1000 : null;
  const bps = r.total.bitsPerSecond;
  if (km === null || bps === null) return null;
  return `Land Speed Record metric (throughput x ${groupDigits(km)} km): ${formatBitMetres(bitMetresPerSec(bps, km))}`;
}

/** The compact block: separator, totals, CPU, then the answer. */
export function formatCompactSummary(r: LonghaulResult): string {
  const tailHead = r.params.protocol === 'udp' ? `${'jitter'.padStart(11)}${'lost/total'.padStart(22)}` : 'retr'.padStart(7);
  const lines = [SEPARATOR, `[ ID] ${'interval'.padEnd(13)}${'sent'.padStart(10)}${'received'.padStart(10)}${'rate'.padStart(15)}${tailHead}`];
  const both = r.directions.controllerToResponder && r.directions.responderToController;
  for (const sender of ['controller', 'responder'] as Side[]) {
    const rows = directionRows(r, sender);
    if (!rows.length) continue;
    if (both) lines.push(`${pathDirectionLabel(sender === 'controller' ? 'controllerToResponder' : 'responderToController', true)}:`);
    lines.push(...rows);
  }
  // What the user asked for by flag is answered here too: -O, --capacity, --distance-km.
  const [capacity] = capacityLines(r);
  lines.push(...askedLines(r));
  for (const extra of [omitText(r), overrunLine(r), slowIntervalsLine(r), cpuLine(r), capacity ?? null, distanceLine(r)]) if (extra) lines.push(extra);
  if (r.partial) {
    lines.push(`PARTIAL RESULT: ${r.partialReason ?? 'the run ended early'}`);
    for (const e of r.errors) lines.push(`  ${e.code}: ${e.message}`);
  }
  lines.push(...answerLines(r, 'terminal'));
  return lines.join('\n') + '\n';
}
