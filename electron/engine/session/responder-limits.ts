/**
 * The responder's limits as rules: which parameters it refuses (each refusal
 * names the limit and its flag), and the guard that holds a running run to a
 * wall-clock deadline and a byte budget whatever the controller asks or does.
 * A byte-limited run (`-n 1T`) has no duration of its own, and a paired peer
 * could otherwise keep one going, or move twice the budget with --bidir.
 *
 * The byte budget is held by the data workers, stream by stream (streamCaps):
 * a controller that ignores the responder's stop, or samples once a minute,
 * cannot move more. At a limit the responder stops reading and closes the
 * run's data connections itself, and ends the session when the controller has
 * not answered within LIMIT_ANSWER_MS.
 */
import { planStreams, type PlannedStream } from '../../contract/stream-plan.js';
import { type RunParams } from '../../protocol/run-params.js';
import { formatBytes } from '../../contract/units.js';

/**
 * What a responder allows a peer to ask for, and enforces while the run goes: the
 * parameters are checked first (each refusal names its limit), then the run is held to
 * a wall-clock deadline and a byte budget whatever the controller does (responder-limits.ts).
 */
export interface ResponderLimits {
  /** Stream ends of one run in total (a --bidir run of N streams has 2N). */
  maxStreams: number;
  /** Wall-clock seconds of a run, byte-limited runs included. */
  maxSeconds: number;
  /** Bytes through this responder in one run, both directions together. */
  maxBytes: number;
  /** Window (socket buffers) per stream end. */
  maxWindowBytes: number;
}

export const DEFAULT_RESPONDER_LIMITS: ResponderLimits = {
  maxStreams: 128,
  maxSeconds: 3600,
  // More than an hour (the default --max-seconds) at 100 Gbit/s moves (45 TB; docs/measurements.md#responder-max-bytes).
  maxBytes: 64 * 1024 ** 4,
  // 2 × the bandwidth-delay product of 1 Gbit/s over the seeds' 1.3 s satellite hop; a paired peer
  // asking for 1 GiB per stream end would otherwise pin 128 GiB of kernel memory (forced past rmem_max as root).
  maxWindowBytes: 256 * 1024 * 1024,
};

/** Slack past a time-limited run's own end before the deadline cuts it (the controller stops it itself first). */
const DEADLINE_SLACK_SECONDS = 10;

/**
 * How long, after a limit ended the run, the controller has to send its stop; then the responder
 * ends the session itself (LH_ERR_RESPONDER_LIMIT). Its data connections are closed already.
 */
export const LIMIT_ANSWER_MS = 5000;

/**
 * The most each of the responder's stream ends may move, whatever the controller does: a byte-limited
 * run's streams what they were planned to carry (together within --max-bytes, checked with the
 * parameters); a time-limited run's an equal share of --max-bytes. A receiver stops reading at its
 * cap: on the native loop exactly there, on Node's within one read (128 KiB at most), so a run moves
 * at most --max-bytes plus 128 KiB per stream end on Node's loop. The share is per stream: a run whose
 * streams move unequal amounts is cut when its fastest stream reaches its share.
 */
export function streamCaps(plan: readonly PlannedStream[], limits: ResponderLimits): Map<number, number> {
  const share = Math.floor(limits.maxBytes / Math.max(1, plan.length));
  return new Map(plan.map((s) => [s.id, s.bytes ?? share]));
}

/** The sentence for a stream that reached its cap (the worker's `limit`): names --max-bytes. */
function capReason(limits: ResponderLimits, streamEnds: number, id: number, capBytes: number): string {
  const over = streamEnds > 1 ? `, its share of this responder's limit of ${formatBytes(limits.maxBytes)} per run over ${streamEnds} stream ends` : '';
  return `stream ${id} moved ${formatBytes(capBytes)}${over}: the run reached this responder's limit of ${formatBytes(limits.maxBytes)} per run (--max-bytes)`;
}

/** Why these parameters exceed the limits; empty when they do not. */
export function paramsOverLimits(p: RunParams, limits: ResponderLimits): string[] {
  const problems: string[] = [];
  const ends = planStreams(p).length;
  if (ends > limits.maxStreams) {
    const what = p.direction === 'bidir' ? `${ends} streams (${p.streams} each way)` : `${ends} streams`;
    problems.push(`${what}: this responder allows ${limits.maxStreams} (--max-streams)`);
  }
  if (p.seconds !== null && p.seconds > limits.maxSeconds) problems.push(`${p.seconds} s: this responder allows ${limits.maxSeconds} s (--max-seconds)`);
  const totalBytes = p.bytes === null ? null : p.bytes * (p.direction === 'bidir' ? 2 : 1);
  if (totalBytes !== null && totalBytes > limits.maxBytes) {
    const what = p.direction === 'bidir' ? `${totalBytes} bytes (${p.bytes} each way)` : `${totalBytes} bytes`;
    problems.push(`${what}: this responder allows ${limits.maxBytes} in one run (--max-bytes)`);
  }
  if (p.windowBytes !== null && p.windowBytes > limits.maxWindowBytes) {
    problems.push(`a window of ${p.windowBytes} bytes per stream end: this responder allows ${limits.maxWindowBytes} (--max-window)`);
  }
  return problems;
}

/** Holds one running run to the limits; `onLimit` is called once, with the sentence to record. */
export class RunLimitGuard {
  private readonly timer: NodeJS.Timeout;
  private answerTimer: NodeJS.Timeout | null = null;
  private fired = false;

  /**
   * `controller`: the partner as the reason names it (contract/partner-label.ts). `onNoAnswer`: LIMIT_ANSWER_MS
   * after `onLimit` the controller still has not stopped (dispose() not called).
   */
  constructor(
    private readonly limits: ResponderLimits,
    p: RunParams,
    controller: string,
    private readonly onLimit: (reason: string) => void,
    private readonly onNoAnswer?: (reason: string) => void,
  ) {
    // A time-limited run was accepted because its own length is within the limit: it gets that length
    // and the slack (an hour's run under a one-hour limit would otherwise be cut at its last second).
    // A byte-limited run has no length of its own: the limit is its deadline.
    const byTime = p.seconds !== null;
    const seconds = p.seconds !== null ? Math.min(limits.maxSeconds, p.seconds) + DEADLINE_SLACK_SECONDS : limits.maxSeconds;
    const why = byTime
      ? `the run went on ${DEADLINE_SLACK_SECONDS} s past its own ${p.seconds} s without ${controller} stopping it`
      : `the run reached this responder's limit of ${limits.maxSeconds} s (--max-seconds)`;
    this.timer = setTimeout(() => this.fire(why), seconds * 1000);
    this.timer.unref();
  }

  /**
   * A responder sample: cumulative [streamId, bytes, completions] of this side's stream ends. A
   * backstop only: the workers hold each stream to its cap (streamCaps) between samples.
   */
  onSample(streams: [number, number, number][]): void {
    const moved = streams.reduce((a, s) => a + s[1], 0);
    if (moved > this.limits.maxBytes) {
      this.fire(`the run moved ${formatBytes(moved)} through this responder, past its limit of ${formatBytes(this.limits.maxBytes)} per run (--max-bytes)`);
    }
  }

  /** A stream stopped at its cap (DataPlane 'limit'). */
  onCap(streamEnds: number, id: number, capBytes: number): void {
    this.fire(capReason(this.limits, streamEnds, id, capBytes));
  }

  /** The controller answered (or the session ended): no forced end. */
  dispose(): void {
    clearTimeout(this.timer);
    if (this.answerTimer) clearTimeout(this.answerTimer);
  }

  private fire(reason: string): void {
    if (this.fired) return;
    this.fired = true;
    clearTimeout(this.timer);
    this.onLimit(reason);
    if (!this.onNoAnswer) return;
    const end = this.onNoAnswer;
    this.answerTimer = setTimeout(() => end(reason), LIMIT_ANSWER_MS);
    this.answerTimer.unref();
  }
}
