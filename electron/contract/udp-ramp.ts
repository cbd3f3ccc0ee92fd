/**
 * `--udp-ramp` (issue 38, item 2; docs/udp.md): the rate a path carries without dropping, found by
 * running UDP at rising rates. Its steps and its finding as data; the words are the CLI's and the
 * app's (report/udp-ramp-text.ts).
 */
import type { LonghaulResult } from './result.js';

/**
 * A step's finding: the asked rate arrived (loss at most the threshold), was dropped above it on the
 * way, arrived whole but slower than it was sent (`queued`: a queue on the path held the excess, so the
 * rate is above what the path carries; a longer step would lose it), was dropped above it by the
 * receiving PC's own sockets (its OS counted at least half of the loss: the UDP verdict's
 * receiver-limited rule), the sending PC fell short, or no result.
 */
export type UdpRampStepOutcome = 'carried' | 'dropped' | 'queued' | 'receiver-dropped' | 'sender-short' | 'failed';

/** A step that did not lose more than the threshold: `dropped` and `queued` are both above the path's rate. */
export function aboveThePath(outcome: UdpRampStepOutcome): boolean {
  return outcome === 'dropped' || outcome === 'queued';
}

/**
 * How much less than asked may arrive (beyond the loss threshold) before a step counts as queued: the
 * rate is read between the first and the last arrival and the pacer keeps to ±2 % of the rate, so a
 * step that arrived whole reads within 3 % of what was sent; a path that queues reads its own rate.
 */
export const UDP_RAMP_QUEUED_SHARE = 0.03;

/**
 * Why the ramp ended: `found` (the highest rate carried and the lowest dropped are within the
 * precision), `sender-limit` (this PC could not send faster: the path carries at least what it
 * sent), `receiver-limit` (the receiving PC's sockets overflowed: that PC, not the path, is the
 * limit found), `max-rate` (the highest rate Longhaul asks was carried), `nothing-carried` (even the lowest
 * rate lost more), `max-steps`, `failed` (a step had no result), `stopped` (by the user).
 */
export type UdpRampEnd = 'found' | 'sender-limit' | 'receiver-limit' | 'max-rate' | 'nothing-carried' | 'max-steps' | 'failed' | 'stopped';

export interface UdpRampStep {
  /** The rate asked of each stream (-b), bit/s. */
  askedBitsPerSec: number;
  /** What arrived, all streams (the result's wall-clock aggregate), bit/s; null: unknown. */
  receivedBitsPerSec: number | null;
  /** Lost ÷ (arrived + lost), the tail counted; null: unknown. */
  lossShare: number | null;
  jitterMs: number | null;
  /** The share of its schedule the sending PC did not send in time; null: unknown. */
  senderShortShare: number | null;
  /** Of the datagrams lost, those the receiving PC's OS dropped at its own sockets; null or absent: its OS does not say. */
  receiverDrops?: number | null;
  outcome: UdpRampStepOutcome;
  /** The step's run (longhaul.result/1 id). */
  resultId: string;
}

export interface UdpRampOutcome {
  schema: 'longhaul.udp-ramp/1';
  /** A step whose loss is above this share is `dropped`. */
  lossThreshold: number;
  streams: number;
  /** Each step's seconds. */
  stepSeconds: number;
  steps: UdpRampStep[];
  /** The carried step with the highest asked rate: its received rate is what the path carries; null when none was. */
  carried: UdpRampStep | null;
  /** The dropped or queued step with the lowest asked rate above `carried`; null when none was. */
  firstDropped: UdpRampStep | null;
  end: UdpRampEnd;
  /** Every step's full result, in order (the JSON file keeps them; the app and the CLI read the steps). */
  results: LonghaulResult[];
}

/** The loss share above which a step is dropped, when none is given (the UDP verdict's LOSS_SHARE). */
export const UDP_RAMP_DEFAULT_LOSS = 0.01;
/** The ramp ends when the highest carried and the lowest dropped rate are this close (ratio − 1): a 5 % answer at worst. */
export const UDP_RAMP_PRECISION = 0.025;
/** Steps at most: doubling from 1 kbit/s to 1 Tbit/s is 30; from -b's default a path is found in about 12. */
export const UDP_RAMP_MAX_STEPS = 24;
/** Each step's seconds when -t is not given: about 5,000 datagrams at 20 Mbit/s, enough to read 1 % loss. */
export const UDP_RAMP_STEP_SECONDS = 3;

/**
 * The ramp's finding from its steps (one rule for the runner, the app's host and a ramp still running):
 * the carried step with the highest asked rate, and the dropped step with the lowest asked rate above it.
 */
export function rampFindings(steps: readonly UdpRampStep[]): { carried: UdpRampStep | null; firstDropped: UdpRampStep | null } {
  const carried = steps
    .filter((s) => s.outcome === 'carried')
    .reduce<UdpRampStep | null>((a, s) => (!a || s.askedBitsPerSec > a.askedBitsPerSec ? s : a), null);
  const firstDropped = steps
    .filter((s) => aboveThePath(s.outcome) && (!carried || s.askedBitsPerSec > carried.askedBitsPerSec))
    .reduce<UdpRampStep | null>((a, s) => (!a || s.askedBitsPerSec < a.askedBitsPerSec ? s : a), null);
  return { carried, firstDropped };
}

/** An end with an answer (the CLI exits 0 on these): every end but a failure, a stop, or nothing carried. */
export function rampAnswered(end: UdpRampEnd): boolean {
  return end === 'found' || end === 'max-rate' || end === 'sender-limit' || end === 'receiver-limit' || end === 'max-steps';
}
