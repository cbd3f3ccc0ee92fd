/**
 * Live throughput series for the Run chart, from the engine's cumulative
 * samples: per interval, rate = Δbytes × 8 / Δt, for the aggregate and for
 * each stream, from the receiver's side (what arrived) or the sender's side.
 *
 * Bounded for 128 streams at 10 samples/s: each series keeps at most
 * `maxPoints` points (when full, neighbours are merged pairwise, so the
 * whole run stays visible at half the resolution), and only the `maxStreams`
 * fastest streams get their own line. Counters are cumulative, so a dropped
 * sample only loses resolution, never bytes.
 */
import type { Side } from '../../../electron/contract/result.js';
import type { LiveSample } from '../../../electron/contract/api.js';

export interface Point {
  /** Seconds since the start (end of the interval). */
  x: number;
  /** bit/s over the interval. */
  y: number;
}

interface Counter {
  bytes: number;
  t: number;
}

interface SeriesOptions {
  /** Which side's samples to use for each stream: the receiver's (default) or the sender's. */
  view: 'receiver' | 'sender';
  /** Stream ids by who sends them. */
  senderOf: (streamId: number) => Side;
  maxPoints?: number;
  maxStreams?: number;
}

export class LiveSeries {
  readonly aggregate: Point[] = [];
  /** A UDP run: the share of each interval's datagrams lost, %, all streams (the receivers' counts, whichever view). */
  readonly lossPercent: Point[] = [];
  private readonly lossTicks: TickPoints;
  /** Per receiving side: its streams' datagrams arrived and lost so far, and its latest interval's. */
  private readonly udpBySide = new Map<Side, { datagrams: number; lost: number; t: number; interval: { datagrams: number; lost: number } | null }>();
  private readonly aggregateTicks: TickPoints;
  readonly perStream = new Map<number, Point[]>();
  /** Bytes and seconds of the newest sample counted, over all counted streams. */
  totalBytes = 0;
  elapsedSeconds = 0;
  /** Rate over the last interval, bit/s (null before two samples). */
  currentBitsPerSec: number | null = null;
  private readonly last = new Map<number, Counter>();
  /**
   * Per side, the bytes of the streams this view counts from its samples, and its latest rate. In a --bidir
   * run each side's samples carry one direction: the aggregate is the sum of both sides' latest rates,
   * never the difference between one side's count and the other's (that zigzagged below zero).
   */
  private readonly bySide = new Map<Side, Counter & { rate: number | null }>();
  private readonly maxPoints: number;
  readonly maxStreams: number;
  /** Bumped on every change, so a view can tell it must redraw. */
  version = 0;

  constructor(private readonly opts: SeriesOptions) {
    this.maxPoints = opts.maxPoints ?? 600;
    this.maxStreams = opts.maxStreams ?? 8;
    this.aggregateTicks = new TickPoints(this.aggregate, this.maxPoints);
    this.lossTicks = new TickPoints(this.lossPercent, this.maxPoints);
  }

  /** Datagrams arrived and lost so far, every receiving side together (a UDP run; null before its first counts). */
  get udpTotals(): { datagrams: number; lost: number } | null {
    if (!this.udpBySide.size) return null;
    let datagrams = 0;
    let lost = 0;
    for (const x of this.udpBySide.values()) {
      datagrams += x.datagrams;
      lost += x.lost;
    }
    return { datagrams, lost };
  }

  /** Whether the run counts datagrams (a UDP run's receivers sent their counts). */
  get udp(): boolean {
    return this.udpBySide.size > 0;
  }

  /** A receiving side's UDP counts: the interval's lost ÷ (lost + arrived), both sides' latest intervals together in --bidir. */
  private addUdp(s: LiveSample): void {
    if (!s.udp?.length) return;
    const datagrams = s.udp.reduce((a, [, d]) => a + d, 0);
    const lost = s.udp.reduce((a, [, , l]) => a + l, 0);
    const prev = this.udpBySide.get(s.side) ?? { datagrams: 0, lost: 0, t: 0, interval: null };
    const dt = s.t - prev.t;
    // A late arrival fills a gap an earlier interval counted: never below 0 (contract/udp.ts udpDelta's rule).
    const interval = { datagrams: datagrams - prev.datagrams, lost: Math.max(0, lost - prev.lost) };
    const plotted = dt > 0 && !(s.final && dt < 0.05);
    this.udpBySide.set(s.side, { datagrams, lost, t: s.t, interval: plotted ? interval : prev.interval });
    if (!plotted) return;
    let d = 0;
    let l = 0;
    for (const x of this.udpBySide.values()) {
      d += x.interval?.datagrams ?? 0;
      l += x.interval?.lost ?? 0;
    }
    if (d + l > 0) this.lossTicks.add(s.index, s.side, { x: s.t, y: (l / (d + l)) * 100 });
  }

  /** Feed every sample of the run (both sides); the ones of the other view are ignored. */
  add(s: LiveSample): void {
    this.addUdp(s);
    const mine = s.streams.filter(([id]) => this.counts(id, s.side));
    if (mine.length === 0) return;
    let sideBytes = 0;
    for (const [id, bytes] of mine) {
      sideBytes += bytes;
      // A side's first interval begins at its first byte when that came before its 0 (contract/api.ts LiveSample.from).
      const prev = this.last.get(id) ?? { bytes: 0, t: Math.min(0, s.from ?? 0) };
      const dt = s.t - prev.t;
      if (dt > 0) push(this.streamPoints(id), { x: s.t, y: ((bytes - prev.bytes) * 8) / dt }, this.maxPoints);
      this.last.set(id, { bytes, t: s.t });
    }
    const side = this.bySide.get(s.side) ?? { bytes: 0, t: Math.min(0, s.from ?? 0), rate: null };
    const dt = s.t - side.t;
    // The final sample can close a sliver of an interval; its rate is noise, so it only updates the totals.
    const plotted = dt > 0 && !(s.final && dt < 0.05);
    this.bySide.set(s.side, { bytes: sideBytes, t: s.t, rate: plotted ? ((sideBytes - side.bytes) * 8) / dt : side.rate });
    if (plotted) {
      const y = [...this.bySide.values()].reduce((a, x) => a + (x.rate ?? 0), 0);
      this.aggregateTicks.add(s.index, s.side, { x: s.t, y });
      this.currentBitsPerSec = y;
    }
    this.totalBytes = [...this.bySide.values()].reduce((a, x) => a + x.bytes, 0);
    this.elapsedSeconds = Math.max(this.elapsedSeconds, s.t);
    this.version++;
  }

  /** Average since the start, bit/s. */
  get averageBitsPerSec(): number | null {
    return this.elapsedSeconds > 0 ? (this.totalBytes * 8) / this.elapsedSeconds : null;
  }

  /** The streams to draw: the fastest by bytes so far, at most `maxStreams`. */
  shownStreams(): number[] {
    return [...this.last.entries()]
      .sort((a, b) => b[1].bytes - a[1].bytes || a[0] - b[0])
      .slice(0, this.maxStreams)
      .map(([id]) => id)
      .sort((a, b) => a - b);
  }

  get streamCount(): number {
    return this.last.size;
  }

  private counts(id: number, side: Side): boolean {
    const sender = this.opts.senderOf(id);
    return this.opts.view === 'sender' ? side === sender : side !== sender;
  }

  private streamPoints(id: number): Point[] {
    let p = this.perStream.get(id);
    if (!p) this.perStream.set(id, (p = []));
    return p;
  }
}

/**
 * One point per sample tick for a series both sides feed (a --bidir run: each side samples the directions it
 * sees): the second side's sample of the same tick updates the point the first one added, instead of adding a
 * near-duplicate beside it. A point that `push` has since merged is left alone (the new one is appended).
 */
export class TickPoints {
  private last: Point | null = null;
  private index = -1;
  private side: Side | null = null;

  constructor(
    readonly series: Point[],
    private readonly max: number,
  ) {}

  add(index: number, side: Side, p: Point): void {
    const last = this.last;
    if (index === this.index && side !== this.side && last && this.series.at(-1) === last) {
      last.x = Math.max(last.x, p.x);
      last.y = p.y;
      return;
    }
    const q = { ...p };
    push(this.series, q, this.max);
    this.last = q;
    this.index = index;
    this.side = side;
  }
}

/** Append; when over `max`, merge neighbours pairwise (time-weighted mean rate), halving the series in place. */
export function push(series: Point[], p: Point, max: number): void {
  series.push(p);
  if (series.length <= max) return;
  const merged: Point[] = [];
  for (let i = 0; i + 1 < series.length; i += 2) {
    const a = series[i];
    const b = series[i + 1];
    if (!a || !b) break;
    const t0 = series[i - 1]?.x ?? 0;
    const da = a.x - t0;
    const db = b.x - a.x;
    merged.push({ x: b.x, y: da + db > 0 ? (a.y * da + b.y * db) / (da + db) : b.y });
  }
  const last = series.at(-1);
  if (series.length % 2 === 1 && last) merged.push(last);
  series.splice(0, series.length, ...merged);
}
