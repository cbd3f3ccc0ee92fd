/**
 * Live throughput of a multi-peer run for the Run chart: a line per peer and
 * the aggregate, from the peers' cumulative samples (each tagged with its
 * peer). A peer's figure for an interval is known once every side it needs has
 * reported that interval (both, in bidir: each side receives one direction);
 * the aggregate is the contract's rule (GroupIntervalSum), the one the CLI's
 * live lines use: summed once every peer reported, never counting a gap as 0.
 * Bounded like LiveSeries: at most `maxPoints` per line, merged pairwise.
 */
import type { LiveSample } from '../../../electron/contract/api.js';
import { GroupIntervalSum } from '../../../electron/contract/group-live.js';
import type { Direction, Side } from '../../../electron/contract/result.js';
import { push, type Point } from './live-series.js';

interface GroupSeriesOptions {
  view: 'receiver' | 'sender';
  direction: Direction;
  /** Stream ids by who sends them (the same plan for every peer). */
  senderOf: (streamId: number) => Side;
  peerCount: number;
  maxPoints?: number;
}

/** The sides whose samples a view needs: the receiving ones (receiver view) or the sending ones. */
export function viewSides(view: 'receiver' | 'sender', direction: Direction): Side[] {
  if (direction === 'bidir') return ['controller', 'responder'];
  const sender: Side = direction === 'forward' ? 'controller' : 'responder';
  return [view === 'sender' ? sender : sender === 'controller' ? 'responder' : 'controller'];
}

interface PeerTrack {
  /** Per needed side: cumulative bytes of the counted streams and `t`, by interval index (dropped once used). */
  sides: Map<Side, Map<number, { bytes: number; t: number }>>;
  lastBytes: number;
  lastT: number;
}

export class GroupSeries {
  /** One line per peer, in peer order. */
  readonly peers: Point[][];
  readonly aggregate: Point[] = [];
  /** Bytes so far over all peers (each peer's newest complete interval). */
  totalBytes = 0;
  /** The latest `t` of any peer's complete interval, seconds. */
  elapsedSeconds = 0;
  /** The newest aggregate interval's rate, bit/s (null before the first). */
  currentBitsPerSec: number | null = null;
  private readonly tracks: PeerTrack[];
  private readonly sum: GroupIntervalSum;
  private readonly maxPoints: number;

  constructor(private readonly opts: GroupSeriesOptions) {
    this.maxPoints = opts.maxPoints ?? 600;
    const sides = viewSides(opts.view, opts.direction);
    this.tracks = Array.from({ length: opts.peerCount }, () => ({ sides: new Map(sides.map((s) => [s, new Map()])), lastBytes: 0, lastT: 0 }));
    this.peers = this.tracks.map(() => []);
    this.sum = new GroupIntervalSum(opts.peerCount);
  }

  /** Feed every sample of the group (all peers, both sides); what this view does not count is ignored. */
  add(s: LiveSample): void {
    const track = s.peer === undefined ? undefined : this.tracks[s.peer];
    const byIndex = track?.sides.get(s.side);
    if (!track || !byIndex || s.peer === undefined) return;
    const counted = s.streams.filter(([id]) => this.counts(id, s.side)).reduce((a, [, bytes]) => a + bytes, 0);
    byIndex.set(s.index, { bytes: counted, t: s.t });
    const all = [...track.sides.values()].map((m) => m.get(s.index));
    const known = all.filter((x) => x !== undefined);
    if (known.length < all.length) return;
    for (const m of track.sides.values()) m.delete(s.index);
    const bytes = known.reduce((a, x) => a + x.bytes, 0);
    const t = Math.max(...known.map((x) => x.t));
    const dt = t - track.lastT;
    // The final sample can close a sliver of an interval; its rate is noise, so it is not plotted (its bytes count).
    const line = this.peers[s.peer];
    if (line && dt > 0 && !(s.final && dt < 0.05)) push(line, { x: t, y: ((bytes - track.lastBytes) * 8) / dt }, this.maxPoints);
    const done = this.sum.add(s.peer, s.index, bytes - track.lastBytes, t);
    if (s.final) done.push(...this.sum.end(s.peer));
    for (const iv of done) {
      // A final sliver again (the bytes stay in the totals); intervals are at least 0.1 s otherwise.
      if (iv.seconds < 0.05) continue;
      this.currentBitsPerSec = (iv.bytes * 8) / iv.seconds;
      push(this.aggregate, { x: iv.t, y: this.currentBitsPerSec }, this.maxPoints);
    }
    track.lastBytes = bytes;
    track.lastT = t;
    this.totalBytes = this.tracks.reduce((a, p) => a + p.lastBytes, 0);
    this.elapsedSeconds = Math.max(this.elapsedSeconds, t);
  }

  /** Average since the start over all peers, bit/s. */
  get averageBitsPerSec(): number | null {
    return this.elapsedSeconds > 0 ? (this.totalBytes * 8) / this.elapsedSeconds : null;
  }

  private counts(id: number, side: Side): boolean {
    const sender = this.opts.senderOf(id);
    return this.opts.view === 'sender' ? side === sender : side !== sender;
  }
}
