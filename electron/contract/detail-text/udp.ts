/** The detail of a UDP run's findings (analysis/verdicts/udp.ts): the asked rate, what arrived, loss and jitter. */
import type { Door } from '../door.js';
import { formatJitter, formatLossShare, formatRateShort, groupDigits } from '../units.js';
import type { FindingData } from './words.js';
import { figure, measuredText } from './words.js';

function askedText(d: FindingData): string {
  const asked = figure(d, 'pacedRate');
  return asked !== null ? formatRateShort(asked) : 'the asked rate';
}

/** "0.12 % of 4,245 datagrams lost, jitter 0.044 ms (RFC 3550)", with what is known. */
function countsText(d: FindingData): string {
  const loss = figure(d, 'lossRatio');
  const n = figure(d, 'datagrams');
  const jitter = figure(d, 'jitter');
  const lost = loss !== null ? `${formatLossShare(loss)} of ${n !== null ? `${groupDigits(n)} ` : ''}datagrams lost` : 'loss unknown';
  return `${lost}, jitter ${jitter !== null ? `${formatJitter(jitter)} (RFC 3550)` : 'unknown'}`;
}

/** application-limited/udp-carried: the asked rate arrived. */
export function udpCarriedText(d: FindingData, door: Door): string {
  const raise = door === 'app' ? 'raise Bitrate per stream' : 'raise -b';
  return `The asked ${askedText(d)} arrived (${measuredText(d)}): ${countsText(d)}. UDP sends at the rate asked, so the path carries at least this; ${raise} to find where loss begins.`;
}

/** Who dropped them: the path (the receiving PC's OS counted few or none at its sockets), or unknown. */
function whoDropped(d: FindingData): string {
  const drops = figure(d, 'receiverDrops');
  if (drops === null) return "the path, or the receiving PC, dropped them (the receiving PC's OS does not say which)";
  return drops === 0
    ? "the path dropped them: the receiving PC's OS dropped none at its sockets"
    : `the path dropped most of them: the receiving PC's OS dropped ${groupDigits(drops)} at its sockets`;
}

/** loss-limited/udp-dropped: more than the threshold was lost. */
export function udpDroppedText(d: FindingData, door: Door): string {
  const lower = door === 'app' ? 'A lower Bitrate per stream' : 'A lower -b';
  return `At ${askedText(d)} asked, ${countsText(d)}: ${whoDropped(d)}; ${measuredText(d)} arrived. ${lower} finds the rate it carries without loss.`;
}

/** receiver-limited/udp-socket-full: the receiving PC's sockets overflowed, so the PC, not the path, set the loss. */
export function udpReceiverFullText(d: FindingData, door: Door): string {
  const drops = figure(d, 'receiverDrops') ?? 0;
  const buffer = door === 'app' ? 'A larger Receive buffer per stream on the Test step' : 'A larger -w';
  return `At ${askedText(d)} asked, ${countsText(d)}: the receiving PC (the ${d.side ?? 'receiver'}) dropped ${groupDigits(drops)} of them itself, its socket's receive buffer full before Longhaul read them, so this loss is that PC's, not the path's. ${buffer} gives bursts room (Linux caps it at net.core.rmem_max); if the loss stays, the receiving PC's CPU is the limit.`;
}

/** cpu-limited/udp-sender-short: the sending PC could not send at the asked rate. */
export function udpSenderShortText(d: FindingData): string {
  const short = figure(d, 'senderShortShare') ?? 0;
  return `The sending PC (the ${d.side ?? 'sender'}) sent ${formatLossShare(short)} less than the asked ${askedText(d)}: its pacer fell behind (a busy CPU, or datagrams too small for the rate: each is one system call). ${countsText(d)}.`;
}
