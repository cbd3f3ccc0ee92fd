/**
 * The responder's limits as rules: which parameters it refuses (each refusal
 * names the limit and its flag), and the guard that holds a running run to a
 * wall-clock deadline and a byte budget whatever the controller asks or does.
 * A byte-limited run (`-n 1T`) has no duration of its own, and a paired peer
 * could otherwise keep one going, or move twice the budget with --bidir.
 */
import { planStreams, type RunParams } from './params.js';
import type { ResponderLimits } from './responder-session.js';
import { formatBytes } from '../util/units.js';

/** Slack past a time-limited run's own end before the deadline cuts it (the controller stops it itself first). */
const DEADLINE_SLACK_SECONDS = 10;

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
  private fired = false;

  constructor(
    private readonly limits: ResponderLimits,
    p: RunParams,
    private readonly onLimit: (reason: string) => void,
  ) {
    const own = p.seconds === null ? Infinity : p.seconds + DEADLINE_SLACK_SECONDS;
    const seconds = Math.min(limits.maxSeconds, own);
    const why =
      seconds === limits.maxSeconds
        ? `the run reached this responder's limit of ${limits.maxSeconds} s (--max-seconds)`
        : `the run went on ${DEADLINE_SLACK_SECONDS} s past its own ${p.seconds} s without the controller stopping it`;
    this.timer = setTimeout(() => this.fire(why), seconds * 1000);
    this.timer.unref();
  }

  /** A responder sample: cumulative [streamId, bytes, completions] of this side's stream ends. */
  onSample(streams: [number, number, number][]): void {
    const moved = streams.reduce((a, s) => a + s[1], 0);
    if (moved > this.limits.maxBytes) {
      this.fire(`the run moved ${formatBytes(moved)} through this responder, past its limit of ${formatBytes(this.limits.maxBytes)} per run (--max-bytes)`);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  private fire(reason: string): void {
    if (this.fired) return;
    this.fired = true;
    this.dispose();
    this.onLimit(reason);
  }
}
