/**
 * The receiver console log (`--log FILE`, `longhaul report --format console`):
 * a units line, the run's parameters, one row per stream per interval (the
 * receiver's view), then the PetaBumps table. The live writer produces the
 * same text piece by piece, so a log written during a run and one re-rendered
 * from its saved result read the same.
 */
import { zeroCopyLine } from '../contract/send-path-text.js';
import type { IntervalResult, LonghaulResult, ResultParams } from '../contract/result.js';
import { bitrateText } from '../contract/pacing-info.js';
import { intervalRetransText } from '../contract/interval-tcp-text.js';
import { omitText } from '../contract/omit-text.js';
import { partialLabel } from '../contract/partial-text.js';
import { IntervalTotals } from './interval-totals.js';
import { pathDirectionLabel } from '../contract/direction.js';
import { formatJitter, formatLostTotal, groupDigits } from '../contract/units.js';
import type { UdpTotal } from '../contract/udp.js';
import { alignRow, fixedOrUnknown, formatPetaBumpsTable, UNITS_LINE, type PetaBumpsInput } from './petabumps-table.js';

/** `Retr(segments)` and `Cwnd(bytes)` are the sender's, as iperf3 prints them: retransmits in the interval (`≈`: Windows' estimate), cwnd at its end. */
const INTERVAL_HEADER = ['Interval', 'Thread', 'End(s)', 'Seconds', 'Received(bytes)', 'Throughput(Mbit/s)', 'Retr(segments)', 'Cwnd(bytes)'] as const;

/** The lines written before the first interval: units, parameters, interval header. */
export function consoleLogHead(p: ResultParams): string {
  const limit = p.bytes !== null ? `${p.bytes} bytes` : `${p.seconds} s`;
  const window = p.windowBytes === null ? 'OS default (autotuning)' : `${p.windowBytes} bytes requested`;
  const mss = p.mssBytes ? `${p.mssBytes} bytes requested` : 'OS default';
  const bitrate = p.bitrateBitsPerSec ? `, bitrate ${bitrateText(p.bitrateBitsPerSec)} (--bitrate)` : '';
  // UDP has no window nor MSS: its datagram size and the receiving socket's buffer instead (Retr and Cwnd read "unknown").
  const shape =
    p.protocol === 'udp'
      ? `${p.streams} UDP stream(s) per direction, ${p.direction}, limit ${limit}, datagrams of ${p.bufferBytes} bytes, receive buffer ${p.windowBytes === null ? 'OS default' : `${p.windowBytes} bytes requested`}`
      : `${p.streams} stream(s) per direction, ${p.direction}, limit ${limit}, buffer ${p.bufferBytes} bytes, window ${window}, MSS ${mss}`;
  return (
    [
      `Longhaul receiver log (PetaBumps layout). ${UNITS_LINE}`,
      `Parameters: ${shape}${bitrate}, interval ${p.intervalSeconds} s`,
      INTERVAL_HEADER.join(' '),
    ].join('\n') + '\n'
  );
}

/** One row per stream for one interval, receiver's view ("unknown" when the receiver's sample is missing). */
export function consoleLogInterval(iv: IntervalResult): string {
  return iv.streams
    .map((s) => {
      const mbit = s.receivedBytes !== null && iv.seconds > 0 ? (s.receivedBytes * 8) / iv.seconds / 1e6 : null;
      return (
        alignRow(INTERVAL_HEADER, [
          String(iv.index),
          String(s.id),
          iv.t.toFixed(3),
          iv.seconds.toFixed(3),
          s.receivedBytes === null ? 'unknown' : String(s.receivedBytes),
          fixedOrUnknown(mbit, 3),
          intervalRetransText(s),
          s.cwndBytes === null || s.cwndBytes === undefined ? 'unknown' : String(s.cwndBytes),
        ]) +
        // --omit: shown, not counted (as iperf3 marks its omitted lines)
        (iv.omitted ? ' (omitted)' : '') +
        '\n'
      );
    })
    .join('');
}

/** The PetaBumps numbers of a finished (or failed) run, from its result. */
function petaBumpsInputFromResult(r: LonghaulResult): PetaBumpsInput {
  return {
    threads: r.streams.map((s) => ({ id: s.id, bytes: s.bytes, seconds: s.seconds, ...(s.partialRate ? { partialRate: s.partialRate } : {}) })),
    totalBytes: r.total.bytes,
    totalSeconds: r.total.seconds,
    completions: r.total.completions,
  };
}

/** The PetaBumps numbers as far as the intervals tell (realtimes are interval boundaries). */
export function petaBumpsInputFromIntervals(intervals: IntervalResult[]): PetaBumpsInput {
  return IntervalTotals.of(intervals).petaBumpsInput();
}

/** Mbit/s with the table's three decimals. */
function rateMbit(bitsPerSecond: number): string {
  return (bitsPerSecond / 1e6).toFixed(3);
}

/** The closing section of a finished run's log: who, when, status, the PetaBumps table. */
export function consoleLogSummary(r: LonghaulResult): string {
  const status = r.partial ? `PARTIAL: ${r.partialReason ?? 'the run ended early'}` : 'complete';
  return (
    [
      `Run ${r.id}: ${r.controller.hostname} -> ${r.responder.hostname} (${r.responder.address}), started ${r.startedAt}, ended ${r.endedAt}, ${status}`,
      ...r.errors.map((e) => `  ${e.code}: ${e.message}`),
      // What the kernels did with the MSS: the parameters line above can only say what was asked.
      ...(omitText(r) ? [omitText(r)] : []),
      ...(r.pacing ? [`Bitrate (--bitrate, per stream): ${r.pacing.note}`] : []),
      ...(zeroCopyLine(r) ? [zeroCopyLine(r)] : []),
      ...(r.mss && r.params.protocol !== 'udp'
        ? [`MSS: ${r.mss.requestedBytes === null ? '' : `${r.mss.requestedBytes} bytes requested, `}${r.mss.note}`]
        : []),
      ...udpLines(r),
      ...formatPetaBumpsTable(petaBumpsInputFromResult(r)),
      ...(r.total.partialRate
        ? [
            `Rate (${partialLabel(r.total.partialRate)}): ${rateMbit(r.total.partialRate.bitsPerSecond)} Mbit/s = Total Bytes x 8 / ${r.total.partialRate.seconds.toFixed(3)} s`,
          ]
        : []),
    ].join('\n') + '\n'
  );
}

/** A UDP run's loss and jitter per direction, as iperf3's receiver line: lost/total, jitter, order; then how many of the lost the receiving PC's OS dropped itself. */
export function udpLines(r: LonghaulResult): string[] {
  const line = (label: string, u: UdpTotal): string =>
    `UDP${label}: ${formatLostTotal(u.lost, u.lost + u.datagrams)} datagrams lost, jitter ${u.jitterMs === null ? 'unknown' : formatJitter(u.jitterMs / 1000)} (RFC 3550), ` +
    `out of order ${u.outOfOrder === null ? 'unknown' : groupDigits(u.outOfOrder)}, duplicates ${u.duplicates === null ? 'unknown' : groupDigits(u.duplicates)}` +
    (u.receiverDrops === undefined ? '' : `; dropped by the receiving PC ${u.receiverDrops === null ? 'unknown' : groupDigits(u.receiverDrops)}`);
  const both = r.directions.controllerToResponder?.udp && r.directions.responderToController?.udp;
  if (!both) return r.total.udp ? [line('', r.total.udp)] : [];
  return (['controllerToResponder', 'responderToController'] as const).flatMap((d) => {
    const u = r.directions[d]?.udp;
    return u ? [line(` (${pathDirectionLabel(d, true)})`, u)] : [];
  });
}

/** The provisional closing section kept at the end of a live log until the run finishes. */
export function consoleLogProvisional(totals: IntervalTotals): string {
  const last = totals.last;
  const where = last ? `after interval ${last.index} (t = ${last.t.toFixed(3)} s)` : 'before the first interval';
  return (
    [
      `PARTIAL: the run is still going or was interrupted ${where}; realtimes below are interval boundaries, not first and last byte`,
      ...formatPetaBumpsTable(totals.petaBumpsInput()),
    ].join('\n') + '\n'
  );
}

/** The whole log of a saved result (what `longhaul report --format console` prints). */
export function formatConsoleLog(r: LonghaulResult): string {
  return consoleLogHead(r.params) + r.intervals.map(consoleLogInterval).join('') + consoleLogSummary(r);
}
