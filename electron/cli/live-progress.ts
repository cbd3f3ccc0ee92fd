/**
 * Live progress of a run on the terminal. On a TTY: one line, rewritten at
 * every sample. Otherwise: one plain line per interval (logs, pipes, CI).
 * Rates are the receiver's view (what arrived), per direction.
 */
import type { Side } from '../contract/result.js';
import type { SideSample } from '../engine/data-plane.js';
import { planStreams, type RunParams } from '../engine/params.js';
import { formatBytes, formatRate } from '../util/units.js';

interface DirectionState {
  label: string;
  /** The side whose samples tell what arrived in this direction. */
  receiver: Side;
  ids: Set<number>;
  lastBytes: number;
  lastT: number;
}

export class LiveProgress {
  private readonly directions: DirectionState[] = [];
  private readonly tty: boolean;

  constructor(
    params: RunParams,
    private readonly out: NodeJS.WriteStream = process.stdout,
  ) {
    this.tty = Boolean(out.isTTY) && process.env.CI !== 'true';
    const plan = planStreams(params);
    const both = params.direction === 'bidir';
    for (const sender of ['controller', 'responder'] as const) {
      const ids = new Set(plan.filter((s) => s.sender === sender).map((s) => s.id));
      if (ids.size === 0) continue;
      this.directions.push({
        label: both ? (sender === 'controller' ? 'send' : 'recv') : '',
        receiver: sender === 'controller' ? 'responder' : 'controller',
        ids,
        lastBytes: 0,
        lastT: 0,
      });
    }
  }

  private headerShown = false;

  /** Feed every sample of both sides; only the receiving side's samples are shown. */
  onSample(sample: SideSample, side: Side): void {
    const parts: string[] = [];
    for (const d of this.directions) {
      if (d.receiver !== side) continue;
      const bytes = sample.streams.filter((s) => d.ids.has(s[0])).reduce((a, s) => a + s[1], 0);
      const dt = sample.t - d.lastT;
      if (sample.final && bytes === d.lastBytes) continue; // nothing new after the last tick
      const nowRate = dt > 0 ? ((bytes - d.lastBytes) * 8) / dt : null;
      const avgRate = sample.t > 0 ? (bytes * 8) / sample.t : null;
      if (this.tty) {
        parts.push(`${d.label ? d.label + ' ' : ''}now ${formatRate(nowRate)}  avg ${formatRate(avgRate)}  ${formatBytes(bytes)}`);
      } else {
        if (!this.headerShown) {
          this.headerShown = true;
          this.out.write(`${'interval'.padEnd(17)} ${'bytes'.padStart(10)} ${'rate (received)'.padStart(16)}\n`);
        }
        const range = `[${d.lastT.toFixed(2).padStart(6)}-${sample.t.toFixed(2).padStart(6)} s]`;
        const tag = d.label ? ` ${d.label}` : '';
        this.out.write(`${range} ${formatBytes(bytes - d.lastBytes).padStart(10)} ${formatRate(nowRate).padStart(16)}${tag}${sample.final ? ' (last)' : ''}\n`);
      }
      d.lastBytes = bytes;
      d.lastT = sample.t;
    }
    if (this.tty && parts.length) {
      this.out.write(`\r\x1b[K${sample.t.toFixed(1).padStart(6)} s  ${parts.join('  |  ')}`);
    }
  }

  /** End the live line so the summary starts on a fresh one. */
  end(): void {
    if (this.tty) this.out.write('\n');
  }

  /** A one-line phase message (connecting, opening streams…), on TTYs only. */
  phase(text: string): void {
    if (this.tty) this.out.write(`\r\x1b[K${text}`);
  }
}
