/**
 * A finding's detail in words: the one place the analysis's data (verdict, case, figures, notes, facts)
 * becomes the sentence behind the answer, for the terminal's --explain, the HTML report, the CSV and the
 * app's Explain. The answer's three short lines are contract/answer-text.ts; both read the same finding.
 *
 * The analysis decides (which case, which branch, which figures); this module only words it, so a rule's
 * threshold is never written here and a word is never tested by the analysis.
 */
import { udpCarriedText, udpDroppedText, udpReceiverFullText, udpSenderShortText } from './udp.js';
import type { Door } from '../door.js';
import type { Diagnosis } from '../result.js';
import { cpuProcessText, cpuUnmeasuredText, readerStarvedText, samePcText } from './cpu.js';
import { bypassedText, emulatedLossText, emulatedRampText, fellBehindText } from './emulated.js';
import { mssLimitedText } from './mss.js';
import { notesText } from './notes.js';
import { congestionText, linkLimitedText, lossLimitedText, pacedText, senderIdleText } from './path.js';
import { receiverLaggedText, sendBufferText, windowLimitedText } from './window.js';
import { measuredText, rttText, type FindingData } from './words.js';

function caseText(d: FindingData, door: Door): string {
  switch (d.case) {
    case 'unknown/nothing-measured':
      return 'Nothing was measured in this direction, so there is nothing to explain.';
    case 'unknown/rtt-unknown':
      return `Measured ${measuredText(d)}, but the RTT is unknown (${d.facts?.missingReason ?? 'TCP_INFO was not available'}), so the limit cannot be told.`;
    case 'unknown/emulator-bypassed':
      return bypassedText(d);
    case 'window-limited/os-receive-buffer':
    case 'window-limited/requested':
    case 'window-limited/emulated-window':
      return windowLimitedText(d);
    case 'send-buffer-limited/send-buffer':
      return sendBufferText(d);
    case 'receiver-limited/app-lagged':
      return receiverLaggedText(d);
    case 'receiver-limited/cpu-starved':
      return readerStarvedText(d);
    case 'congestion-limited/slow-start':
    case 'congestion-limited/loss-rate-unknown':
    case 'congestion-limited/retransmits-unknown':
      return congestionText(d);
    case 'congestion-limited/emulated-slow-start':
      return emulatedRampText(d);
    case 'congestion-limited/emulated-loss':
      return emulatedLossText(d);
    case 'loss-limited/random-loss':
      return lossLimitedText(d);
    case 'application-limited/sender-idle':
      return senderIdleText(d);
    case 'application-limited/paced':
      return pacedText(d, door);
    case 'cpu-limited/process':
      return cpuProcessText(d);
    case 'cpu-limited/same-pc':
      return samePcText(d);
    case 'cpu-limited/unmeasured':
      return cpuUnmeasuredText(d);
    case 'link-limited/rate-reached':
    case 'link-limited/standing-queue':
    case 'link-limited/queue-overflow':
    case 'link-limited/socket-full':
    case 'link-limited/bufferbloat':
      return linkLimitedText(d);
    case 'emulator-limited/fell-behind':
      return fellBehindText(d);
    case 'mss-limited/small-segments':
      return mssLimitedText(d, door);
    case 'application-limited/udp-carried':
      return udpCarriedText(d, door);
    case 'loss-limited/udp-dropped':
      return udpDroppedText(d, door);
    case 'cpu-limited/udp-sender-short':
      return udpSenderShortText(d);
    case 'receiver-limited/udp-socket-full':
      return udpReceiverFullText(d, door);
    case undefined:
      return `Measured ${measuredText(d)} at RTT ${rttText(d)}.`;
  }
}

/**
 * The detail sentence of a finding: its case's words, then its notes'. The terminal's words (the default, and
 * what the saved result keeps) may name Longhaul's flags; the app's name its controls instead (contract/door.ts).
 */
export function detailText(f: FindingData, door: Door = 'terminal'): string {
  return caseText(f, door) + notesText(f, door);
}

/** The finding with its terminal detail rendered (the saved result keeps the sentence for readers that do not render). */
export function withDetail<T extends FindingData>(f: T): T & { sentence: string } {
  return { ...f, sentence: detailText(f) };
}

/**
 * A saved finding's detail for a door. The saved sentence is the terminal's words; another door gets its own
 * words only where the finding's data reproduces the saved sentence exactly (a result saved before the data
 * carried every fact keeps its sentence as saved, never a guess at the rest).
 */
export function savedDetail(d: Diagnosis, door: Door): string {
  if (door === 'terminal' || d.case === undefined) return d.sentence;
  return detailText(d) === d.sentence ? detailText(d, door) : d.sentence;
}
