/**
 * Live progress of a multi-peer run: a line per peer per interval, then an
 * `all` line once every peer has reported that interval (none while one is
 * missing: an unknown is not a zero; contract/group-live.ts holds the rule).
 * On a TTY one line, rewritten. Rates are what arrived (the receiving side's
 * samples), both directions added for bidir.
 */
import { GroupIntervalSum, type GroupLiveInterval } from '../contract/group-live.js';
import type { Side } from '../contract/result.js';
import type { SideSample } from '../engine/data-plane/data-plane.js';
import { planStreams } from '../contract/stream-plan.js';
import { type RunParams } from '../protocol/run-params.js';
import { formatBytes, formatClock, formatRate } from '../contract/units.js';

interface PeerTrack {
  /** Per receiving side: the stream ids it receives, and its cumulative bytes by interval index. */
  sides: Map<Side, { ids: Set<number>; byIndex: Map<number, number> }>;
  lastBytes: number;
  lastT: number;
}

export class GroupProgress {
  private readonly peers: PeerTrack[];
  private readonly tty: boolean;
  private readonly all: GroupIntervalSum;
  private headerShown = false;
  private readonly latest: string[];

  constructor(
    params: RunParams,
    peerCount: number,
    private readonly out: NodeJS.WriteStream = process.stdout,
  ) {
    this.tty = Boolean(out.isTTY) && process.env.CI !== 'true';
    const plan = planStreams(params);
    this.peers = Array.from({ length: peerCount }, () => {
      const sides = new Map<Side, { ids: Set<number>; byIndex: Map<number, number> }>();
      for (const s of plan) {
        const receiver: Side = s.sender === 'controller' ? 'responder' : 'controller';
        let side = sides.get(receiver);
        if (!side) sides.set(receiver, (side = { ids: new Set(), byIndex: new Map() }));
        side.ids.add(s.id);
      }
      return { sides, lastBytes: 0, lastT: 0 };
    });
    this.all = new GroupIntervalSum(peerCount);
    this.latest = Array.from({ length: peerCount }, () => '');
  }

  /** Feed every sample of every peer's run. */
  onSample(peer: number, s: SideSample, side: Side): void {
    const p = this.peers[peer];
    const mine = p?.sides.get(side);
    if (!p || !mine) return;
    mine.byIndex.set(
      s.index,
      s.streams.filter((x) => mine.ids.has(x[0])).reduce((a, x) => a + x[1], 0),
    );
    const all = [...p.sides.values()].map((v) => v.byIndex.get(s.index));
    if (all.some((b) => b === undefined)) return;
    const bytes = all.reduce<number>((a, b) => a + (b ?? 0), 0);
    if (s.final && bytes === p.lastBytes) return this.allLines(this.all.end(peer));
    const dt = s.t - p.lastT;
    const rate = dt > 0 ? ((bytes - p.lastBytes) * 8) / dt : null;
    const done = this.all.add(peer, s.index, bytes - p.lastBytes, s.t);
    this.line(
      `[${formatClock(p.lastT).padStart(6)}-${formatClock(s.t).padStart(6)} s] ${formatBytes(bytes - p.lastBytes).padStart(10)} ${formatRate(rate).padStart(16)} peer ${peer + 1}${s.final ? ' (last)' : ''}`,
      peer,
      `${peer + 1}: ${formatRate(rate)}`,
    );
    p.lastBytes = bytes;
    p.lastT = s.t;
    this.allLines(s.final ? [...done, ...this.all.end(peer)] : done);
  }

  private allLines(intervals: GroupLiveInterval[]): void {
    for (const iv of intervals) {
      const rate = iv.seconds > 0 ? (iv.bytes * 8) / iv.seconds : null;
      this.line(
        `[${formatClock(iv.t - iv.seconds).padStart(6)}-${formatClock(iv.t).padStart(6)} s] ${formatBytes(iv.bytes).padStart(10)} ${formatRate(rate).padStart(16)} all`,
        null,
        `all: ${formatRate(rate)}`,
      );
    }
  }

  private line(plain: string, peer: number | null, short: string): void {
    if (!this.tty) {
      if (!this.headerShown) {
        this.headerShown = true;
        this.out.write(`${'interval'.padEnd(17)} ${'bytes'.padStart(10)} ${'rate (received)'.padStart(16)} peer\n`);
      }
      this.out.write(plain + '\n');
      return;
    }
    if (peer !== null) this.latest[peer] = short;
    const aggregate = peer === null ? short : '';
    this.out.write(`\r\x1b[K${this.latest.map((x, i) => x || `${i + 1}: …`).join('  |  ')}${aggregate ? `  |  ${aggregate}` : ''}`);
  }

  /** End the live line so the summary starts on a fresh one. */
  end(): void {
    if (this.tty) this.out.write('\n');
  }

  /** A one-line phase message, on TTYs only. */
  phase(text: string): void {
    if (this.tty) this.out.write(`\r\x1b[K${text}`);
  }
}
