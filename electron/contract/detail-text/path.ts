/**
 * The detail of the path's findings and their look-alikes: the link (with the queueing it added), the
 * congestion window, packet loss (Mathis), the sending application, --bitrate's pacing.
 */
import { bitrateWhere, type Door } from '../door.js';
import { bitrateText } from '../pacing-info.js';
import type { FindingData } from './words.js';
import { formatRate, formatRateShort, formatRtt, groupDigits } from '../units.js';
import { windowQueueLead } from './window.js';
import { boundsText, figure, lossPct, measuredText, pct, retransWords, rttText } from './words.js';

/** The congestion window's head: "Congestion window W B over RTT r allows at most X; measured m with N retransmitted segments". */
function cwndHead(d: FindingData): string {
  return `Congestion window ${groupDigits(d.numbers.cwndBytes ?? 0)} B over RTT ${rttText(d)} allows at most ${formatRateShort(d.numbers.cwndBitsPerSecond ?? 0)}; measured ${measuredText(d)} with ${retransWords(d)}`;
}

/** How the path was found to be the limit, in words. */
function linkLead(d: FindingData): string {
  const m = measuredText(d);
  switch (d.facts?.linkVia) {
    case 'window-queue':
      return windowQueueLead(d);
    case 'cwnd-queue':
    case 'cwnd-overflow': {
      const why =
        d.facts.linkVia === 'cwnd-queue' ? 'the RTT grew under load, so a queue stood at the bottleneck' : "the losses are the bottleneck's queue overflowing";
      return `${cwndHead(d)}: the sender filled the path up to its bottleneck (${why}), so the path's bottleneck link is the limit, at about ${m}.`;
    }
    case 'rate-reached': {
      const link = figure(d, 'linkRate') ?? 0;
      const measured = d.numbers.measuredBitsPerSecond ?? 0;
      return `Measured ${m} of the link's ${formatRateShort(link)} (${pct(link > 0 ? measured / link : 0)}): the link is the limit.`;
    }
    default:
      return `At RTT ${rttText(d)} ${boundsText(d) || 'TCP'} would carry more than the measured ${m} while the sender kept the socket full: the path (link or receiving host) is the limit.`;
  }
}

/** The queueing the path added under load, stated, or unknown in words; nothing on a local path or without an RTT. */
function queueingWords(d: FindingData): string {
  if (d.numbers.rttSeconds === null || d.facts?.localPath) return '';
  const q = d.numbers.queueingSeconds ?? null;
  const min = d.numbers.minRttSeconds ?? null;
  if (q === null || min === null) return ' The queueing delay under load is unknown (no minimum RTT was reported).';
  const head = ` Under load the RTT was ${rttText(d)} against a minimum of ${formatRtt(min)}: the path adds about ${formatRtt(q)} of queueing under load`;
  if (d.case === 'link-limited/bufferbloat')
    return `${head} (bufferbloat: the bottleneck's queue is far deeper than the path needs, and every flow through it waits that long).`;
  return `${head}.`;
}

/** link-limited, every way there. */
export function linkLimitedText(d: FindingData): string {
  // Behind a window the lead already says where the excess waited.
  return d.facts?.linkVia === 'window-queue' ? linkLead(d) : `${linkLead(d)}${queueingWords(d)}`;
}

/** congestion-limited: the window was still growing, or loss of an unknown rate held it, or the count is unknown. */
export function congestionText(d: FindingData): string {
  const still =
    d.case === 'congestion-limited/loss-rate-unknown'
      ? ': congestion control, reacting to loss, is the limit; the loss rate is unknown (segments sent were not reported), so random loss and a bottleneck queue overflowing cannot be told apart.'
      : d.case === 'congestion-limited/slow-start'
        ? ': the congestion window was still growing (slow start) when the run ended, so congestion control is the limit; a longer run shows the path.'
        : ': congestion control is the limit, or the path behind it; without a retransmit count the two cannot be told apart.';
  return `${cwndHead(d)}${still}`;
}

/** loss-limited/random-loss: Mathis's estimate for the loss rate seen. */
export function lossLimitedText(d: FindingData): string {
  const retrans = d.numbers.retransSegments ?? 0;
  const segments = figure(d, 'segmentsSent') ?? 0;
  const p = d.numbers.lossRatio ?? 0;
  const streams = figure(d, 'streams') ?? 1;
  const cc = d.facts?.congestionControl;
  const ccWords = cc ? ` (${cc.toUpperCase()}${cc === 'cubic' ? ' may carry up to about twice it' : ''})` : '';
  return (
    `${retrans.toLocaleString('en-US')} of ${Math.round(segments).toLocaleString('en-US')} segments were retransmitted (loss about ${lossPct(p)}${d.facts?.retransEstimated ? ', estimated from bytes' : ''}); ` +
    `at RTT ${rttText(d)} Reno's estimate for that loss (Mathis: MSS × 1.22 ÷ (RTT × √p)${streams > 1 ? `, × ${streams} streams` : ''}) is ${formatRateShort(figure(d, 'lossModelRate') ?? 0)}${ccWords}; measured ${measuredText(d)}: packet loss is the limit.`
  );
}

/** application-limited/sender-idle: the sending application left the socket empty. */
export function senderIdleText(d: FindingData): string {
  const sender = d.facts?.senderSide;
  const who = sender ? `the sending application (on the ${sender})` : 'the sending application';
  const idle = d.figures?.senderIdleShare;
  const share = idle?.value ?? 0;
  const measuredBy =
    idle?.source === 'tcp_info'
      ? `the OS counted it sender-limited (nothing to send) ${pct(share)} of the stream's active time`
      : `the kernel had data in flight only ${pct(1 - share)} of the stream's active time`;
  const cpu =
    d.facts?.cpuUnknown === 'not-measured'
      ? ' On a path this short at this rate, the sender waiting for CPU is the likely cause; CPU was not measured in this run.'
      : d.facts?.cpuUnknown === 'pc-unmeasured'
        ? " Both ends ran on this PC: the sender waiting for a core it shares with the receiver and the kernel is the likely cause, but how busy this PC's cores were was not measured, so that is unknown."
        : '';
  const flagged = figure(d, 'appLimitedShare');
  const flag = flagged !== null ? ` The kernel marked ${pct(flagged)} of its rate samples application-limited.` : '';
  return (
    `At RTT ${rttText(d)} ${boundsText(d) || 'TCP'} would carry more than the measured ${measuredText(d)}, and ${who} left the socket empty: ` +
    `${measuredBy}: the application is the limit.${flag}${cpu}`
  );
}

/** application-limited/paced: --bitrate held the senders to what they carried. */
export function pacedText(d: FindingData, door: Door): string {
  const p = d.facts?.pacing;
  const ceiling = figure(d, 'pacedRate') ?? 0;
  const perStream = p?.perStreamBitsPerSecond ?? ceiling;
  const streams = perStream > 0 ? Math.round(ceiling / perStream) : 1;
  const measured = d.numbers.measuredBitsPerSecond ?? 0;
  const of = streams === 1 ? '' : ` (${streams} streams: at most ${formatRate(ceiling)} in all)`;
  const sender = d.side ?? 'sender';
  const how = p?.mechanism ? `${p.mechanism === 'unknown' ? 'a mechanism it did not report' : p.mechanism} on the ${sender}` : `on the ${sender}`;
  const burst = p?.firstBurst
    ? ': more, by the first burst the kernel sends before it paces (the initial window, ten segments; on loopback 64 KiB each), a large share of a short or slow run; the kernel held the cap after it, and'
    : ':';
  return (
    `The sender was paced at ${bitrateText(perStream)} by ${bitrateWhere(door)}${of} (${how}) and carried ${formatRate(measured)}, ` +
    `${pct(ceiling > 0 ? measured / ceiling : 0)} of that${burst} the pacing is the limit, not a window, a buffer or the path.`
  );
}
