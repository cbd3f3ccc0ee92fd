/**
 * A finding's detail in words: the one place the analysis's data (verdict, case, figures, notes, facts)
 * becomes the sentence behind the answer, for the terminal's --explain, the HTML report, the CSV and the
 * app's Explain. The answer's three short lines are contract/answer-text.ts; both read the same finding.
 *
 * The analysis decides (which case, which branch, which figures); this module only words it, so a rule's
 * threshold is never written here and a word is never tested by the analysis.
 */
import { cpuProcessText, cpuUnmeasuredText, readerStarvedText, samePcText } from './cpu.js';
import { bypassedText, emulatedLossText, emulatedRampText, fellBehindText } from './emulated.js';
import { mssLimitedText } from './mss.js';
import { notesText } from './notes.js';
import { congestionText, linkLimitedText, lossLimitedText, pacedText, senderIdleText } from './path.js';
import { receiverLaggedText, sendBufferText, windowLimitedText } from './window.js';
import { measuredText, rttText, type FindingData } from './words.js';

function caseText(d: FindingData): string {
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
      return pacedText(d);
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
      return mssLimitedText(d);
    case undefined:
      return `Measured ${measuredText(d)} at RTT ${rttText(d)}.`;
  }
}

/** The detail sentence of a finding: its case's words, then its notes'. */
export function detailText(f: FindingData): string {
  return caseText(f) + notesText(f);
}

/** The finding with its detail rendered (the saved result keeps the sentence for readers of older versions). */
export function withDetail<T extends FindingData>(f: T): T & { sentence: string } {
  return { ...f, sentence: detailText(f) };
}
