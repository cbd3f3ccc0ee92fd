/** The detail of the window's findings: the receive window, a lagging receiver, the send buffer. */
import type { FindingData } from './words.js';
import { formatRateShort, formatRtt, groupDigits } from '../units.js';
import { figure, measuredText, pct, rttText } from './words.js';

/** window-limited (requested, the OS's receive buffer, the emulated window). */
export function windowLimitedText(d: FindingData): string {
  const n = d.numbers;
  const m = measuredText(d);
  const rtt = rttText(d);
  const cap = n.windowBitsPerSecond;
  const w = n.windowBytes;
  const capHolds = !d.notes?.includes('rtt-varied');
  const scale = n.windowScale === 0 ? ' Window scaling was not negotiated (scale 0).' : n.windowScale !== null ? ` Window scale ${n.windowScale}.` : '';
  const rwnd = n.rwndLimitedShare;
  const timer =
    rwnd === null
      ? ''
      : ` The kernel counted ${pct(rwnd)} of the busy time as receive-window-limited${d.facts?.rarelyBlocked ? ' (a paced sender is rarely blocked by the window that sets its rate)' : ''}.`;
  const measured = n.measuredBitsPerSecond ?? 0;
  const base =
    capHolds && w !== null && cap !== null
      ? measured > cap && formatRateShort(measured) !== formatRateShort(cap)
        ? `Receiver window ${groupDigits(w)} B over RTT ${rtt} allows about ${formatRateShort(cap)}; measured ${m}, ${pct(measured / cap - 1)} above it (RTT readings vary, and a run of N windows spans N − 1 round trips): the window is the limit.`
        : `Receiver window ${groupDigits(w)} B over RTT ${rtt} allows at most ${formatRateShort(cap)}; measured ${m}: the window is the limit.`
      : `The receive window${w !== null ? ` (${groupDigits(w)} B)` : ''} held the sender back ${pct(rwnd ?? 0)} of its busy time; measured ${m} at a median RTT of ${rtt}` +
        `${cap !== null ? ` (the RTT varied during the run, so window ÷ RTT = ${formatRateShort(cap)} is not a ceiling here)` : ''}: the window is the limit.`;
  return base + scale + (capHolds ? timer : '');
}

/** link-limited behind a window: the excess waited in a queue (the lead; the queueing words follow). */
export function windowQueueLead(d: FindingData): string {
  return (
    `Receiver window ${groupDigits(d.numbers.windowBytes ?? 0)} B would allow ${formatRateShort(figure(d, 'windowAtMinRtt') ?? 0)} at the path's minimum RTT of ${formatRtt(d.numbers.minRttSeconds ?? 0)}, ` +
    `but the RTT grew to ${rttText(d)} while the excess waited in a queue; measured ${measuredText(d)}: the path (its bottleneck link or the receiving host) is the limit, not the window.`
  );
}

/** receiver-limited/app-lagged: the receiver's buffer allowed more than it advertised. */
export function receiverLaggedText(d: FindingData): string {
  const cpu = figure(d, 'cpuShareOfCore');
  const cpuWords = d.side && cpu !== null ? ` The receiving side used ${pct(cpu)} of one core.` : ' CPU was not measured on the receiving side.';
  return (
    `The receiver advertised only ${groupDigits(d.numbers.windowBytes ?? 0)} B although its receive buffer was ${groupDigits(figure(d, 'receiveBuffer') ?? 0)} B, so unread data filled it; ` +
    `at RTT ${rttText(d)} that window carries ${formatRateShort(d.numbers.windowBitsPerSecond ?? 0)}, measured ${measuredText(d)}: the receiving application (or its CPU) did not keep up, not the buffer size.${cpuWords}`
  );
}

/** send-buffer-limited: the sender's own buffer capped the data in flight. */
export function sendBufferText(d: FindingData): string {
  const sender = d.facts?.senderSide;
  const who = sender ? `the sending PC (the ${sender})` : 'the sending PC';
  return (
    `The send buffer of ${who} held it back ${pct(d.numbers.sndbufLimitedShare ?? 0)} of its busy time at RTT ${rttText(d)}; measured ${measuredText(d)}: ` +
    `the sender's send buffer is the limit, not the receiver's window.`
  );
}
