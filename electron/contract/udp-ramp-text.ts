/**
 * The UDP ramp in words (contract/udp-ramp.ts), for both doors: the plan line, a line per step as it
 * ends, the steps as a table, and the one answer: the rate the path carries, or why the ramp could not
 * say. The terminal names its flags (`-b 8M`, `-w`), the app its Test step's fields (`Bitrate 8M`).
 */
import type { Door } from './door.js';
import type { UdpRampEnd, UdpRampStep } from './udp-ramp.js';
import { bitrateFlag } from './pacing-info.js';
import { formatJitter, formatLossShare, formatRate, groupDigits } from './units.js';

const ASKED: Record<Door, (bps: number) => string> = {
  terminal: (bps) => `-b ${bitrateFlag(bps)}`,
  app: (bps) => `Bitrate ${bitrateFlag(bps)}`,
};
const BUFFER: Record<Door, string> = { terminal: 'a larger -w', app: 'a larger Receive buffer' };

/** What the answer reads: the steps and the finding (a ramp still running has no `end` yet). */
interface RampAnswerInput {
  lossThreshold: number;
  steps: UdpRampStep[];
  carried: UdpRampStep | null;
  firstDropped: UdpRampStep | null;
  end: UdpRampEnd;
}

/** A step's finding in words (the table's last column, both doors). */
export const RAMP_OUTCOME_WORDS: Record<UdpRampStep['outcome'], string> = {
  carried: 'carried',
  dropped: 'dropped',
  queued: 'queued: arrived slower than sent',
  'receiver-dropped': 'the receiving PC dropped it',
  'sender-short': 'this PC could not send it',
  failed: 'no result',
};

/** The plan, before the first step. */
export function rampPlanLine(target: string, streams: number, stepSeconds: number, lossThreshold: number, door: Door = 'terminal'): string {
  return (
    `UDP ramp to ${target}: ${streams} stream${streams === 1 ? '' : 's'}, ${stepSeconds} s per step; ${door === 'terminal' ? '-b' : 'the Bitrate'} doubles while it arrives with at most ` +
    `${formatLossShare(lossThreshold)} lost, then narrows to the first rate dropped`
  );
}

const HEAD = `${'step'.padStart(4)}  ${'-b per stream'.padStart(13)}  ${'arrived'.padStart(14)}  ${'lost'.padStart(7)}  ${'jitter'.padStart(10)}  finding`;

/** One step, as a row of the table. */
export function rampStepLine(step: UdpRampStep, index: number): string {
  const lost = step.lossShare === null ? 'unknown' : formatLossShare(step.lossShare);
  const jitter = step.jitterMs === null ? 'unknown' : formatJitter(step.jitterMs / 1000);
  return `${String(index + 1).padStart(4)}  ${bitrateFlag(step.askedBitsPerSec).padStart(13)}  ${formatRate(step.receivedBitsPerSec).padStart(14)}  ${lost.padStart(7)}  ${jitter.padStart(10)}  ${RAMP_OUTCOME_WORDS[step.outcome]}`;
}

/** The table's heading line. */
export const RAMP_TABLE_HEAD = HEAD;

/** The one answer. */
export function rampAnswer(o: RampAnswerInput, door: Door = 'terminal'): string {
  const c = o.carried;
  const d = o.firstDropped;
  const asked = ASKED[door];
  const at = (s: UdpRampStep): string =>
    `${asked(s.askedBitsPerSec)}: ${s.lossShare === null ? 'loss unknown' : `${formatLossShare(s.lossShare)} lost`}, jitter ${s.jitterMs === null ? 'unknown' : formatJitter(s.jitterMs / 1000)}`;
  const carried = c ? `${formatRate(c.receivedBitsPerSec)} (${at(c)})` : null;
  const dropped = !d
    ? ''
    : d.outcome === 'queued'
      ? `; at ${asked(d.askedBitsPerSec)} only ${formatRate(d.receivedBitsPerSec)} arrived, the rest held in a queue on the path`
      : `; at ${asked(d.askedBitsPerSec)} ${d.lossShare === null ? 'it' : formatLossShare(d.lossShare)} was lost`;
  switch (o.end) {
    case 'found':
      return `Result: the path carries ${carried} with at most ${formatLossShare(o.lossThreshold)} lost${dropped}.`;
    case 'sender-limit': {
      const last = o.steps.at(-1);
      const where = last ? ` at ${asked(last.askedBitsPerSec)}` : '';
      return `Result: the path carried ${carried ?? 'no rate asked yet'}${dropped};${where} this PC could not send on time, so the ramp stopped at this PC's limit (a faster sender, or another PC, would narrow it further).`;
    }
    case 'receiver-limit': {
      const last = o.steps.at(-1);
      const drops = last?.receiverDrops != null ? `${groupDigits(last.receiverDrops)} datagrams` : 'most of what was lost';
      const where = last ? ` at ${asked(last.askedBitsPerSec)} the receiving PC dropped ${drops} itself, its socket buffer full,` : '';
      return `Result: the path carried ${carried ?? 'no rate asked yet'}${dropped};${where} so the ramp stopped at the receiving PC's limit (${BUFFER[door]}, or a faster receiving PC, would narrow it further).`;
    }
    case 'max-rate':
      return `Result: the path carried the highest rate asked, ${carried}: it carries at least that.`;
    case 'nothing-carried':
      return `Result: even the lowest rate asked lost more than ${formatLossShare(o.lossThreshold)}${dropped}: the path (or the receiving PC) drops below it.`;
    case 'max-steps':
      return `Result: after ${o.steps.length} steps the path carried ${carried ?? 'no rate asked'}${dropped}; not narrowed further.`;
    case 'stopped':
      return `Result: stopped after ${o.steps.length} step${o.steps.length === 1 ? '' : 's'}; carried so far: ${carried ?? 'none'}${dropped}.`;
    case 'failed':
      return `Result: step ${o.steps.length} had no result, so the ramp stopped; carried so far: ${carried ?? 'none'}${dropped}.`;
  }
}
