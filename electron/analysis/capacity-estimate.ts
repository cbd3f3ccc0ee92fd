/**
 * The path's capacity from a tuned run's receiver: when slow start is over and
 * what rate the path carried after it. Pure: fed the receiver's cumulative
 * byte count at each sample (its own clock), it says whether it has seen
 * enough, and what it saw.
 *
 * States: `slow-start` (the rate still grows: an RTT-long slice carried ≥
 * GROWTH times the slice before it) → `measuring` (from the start of the first
 * slice that did not grow, for max(MEASURE_RTTS RTTs, MIN_MEASURE_S)) → `done`.
 * With many slices in that span (a short RTT) the rate is the median slice's:
 * a loss holds bytes back for a slice and releases them in the next, the
 * median passes over both, and over the time the queue ran dry. Where a slice
 * (the sample interval) holds WINDOW_FROM_RTTS round trips or more, a stall and
 * its release fall in neighbouring slices unevenly (about 0.5 and 2 of the
 * path's rate), so the rate is the median of WINDOW_SLICES-slice windows, one
 * starting at each sample; where a slice is about one RTT a stall lasts slices
 * and the link really idled in it, so slices are taken one by one
 * (docs/capacity.md, "The window rule", has the figures). With few slices (a
 * long RTT) a loss after slow start stalls the receiver for a whole slice or
 * more; the first slice with the path full is the clean one, and the rate is
 * that of the leading slices that agree with it within AGREE (done at the
 * first that does not: measured on the 1.2 s RTT harness, the slice after it
 * carried 0).
 */

/** A slice that carried this many times the one before it is still slow start (which doubles per RTT). */
export const GROWTH = 1.25;
/** RTTs the rate is measured over once slow start is over (the goal: at most 3). */
const MEASURE_RTTS = 3;
/** But never less than this, s: a sub-second span of a LAN's sub-ms RTT is a few samples. */
const MIN_MEASURE_S = 2;
/** A span of this many slices or more is averaged whole; fewer (a long RTT) keep the leading slices that agree. */
const AVERAGE_FROM_SLICES = 6;
/** Slices agree when within this share of the first after slow start. */
const AGREE = 0.15;
/** A short RTT's rate is the median over windows this many slices long (a loss's stall and its release in one)… */
const WINDOW_SLICES = 3;
/** …where a slice holds this many RTTs or more (the sample interval longer than the RTT). */
const WINDOW_FROM_RTTS = 2;

/** Slices kept in the result's trace (a 60 s phase at 0.1 s slices would be 600). */
const MAX_SLICES_KEPT = 120;

type CapacityState = 'slow-start' | 'measuring' | 'done';

export interface CapacityEstimate {
  state: CapacityState;
  /** When the rate stopped growing, s (receiver clock since the tuned run's start); null while it grows. */
  slowStartEndS: number | null;
  /** The span measured, s; null before the measuring began. */
  fromS: number | null;
  toS: number | null;
  /** Payload bit/s over the span so far; null before two points of it. */
  bitsPerSecond: number | null;
  /** Lowest and highest RTT-long slice rate inside the span, bit/s; null with fewer than two slices. */
  sliceRange: { min: number; max: number } | null;
}

interface Point {
  t: number;
  bytes: number;
}

/** Follows one tuned run's receiver. `sliceS` is the slice length: the RTT, at least the sample interval. */
export class CapacityTracker {
  private readonly points: Point[] = [];
  private endIndex: number | null = null;
  /** A slice that did not grow, waiting for the next slice to confirm it: its start and end indexes. */
  private candidate: { mid: number; k: number } | null = null;
  /** Sample times jitter: a slice is at least this long (the slice less half a sample interval). */
  private readonly minSliceS: number;

  /** Whether the short-RTT rate is taken over windows of slices (a slice holds WINDOW_FROM_RTTS RTTs or more). */
  private readonly windowed: boolean;

  /** `rttS`: the path's round trip where known (null: slices are taken one by one). */
  constructor(
    private readonly sliceS: number,
    intervalS = 0,
    rttS: number | null = null,
  ) {
    if (!(sliceS > 0)) throw new RangeError(`capacity slice must be above 0 s, got ${sliceS}`);
    this.minSliceS = sliceS - Math.min(intervalS, sliceS) / 2;
    this.windowed = rttS !== null && rttS > 0 && sliceS >= WINDOW_FROM_RTTS * rttS;
  }

  /** Seconds the measured span lasts once slow start is over. */
  get measureS(): number {
    return Math.max(MEASURE_RTTS * this.sliceS, MIN_MEASURE_S);
  }

  /** The receiver's total payload bytes at time t (s); out-of-order or repeated points are ignored. */
  add(t: number, bytes: number): CapacityEstimate {
    const last = this.points.at(-1);
    if (!last || (t > last.t && bytes >= last.bytes)) this.points.push({ t, bytes });
    if (this.endIndex === null) this.endIndex = this.confirmSlowStartEnd();
    const e = this.estimate();
    if (!this.grewAfterStart()) return e;
    // A slice after the "plateau" grew again: that was a pause in slow start (bursty flights through an
    // emulator or a long RTT), not the path full. Look for the end of slow start again from here.
    this.endIndex = null;
    return this.estimate();
  }

  /** Many slices in the measured span (a short RTT): the median slice; few (a long RTT): the leading agreeing ones. */
  private get averaged(): boolean {
    return this.measureS / this.sliceS >= AVERAGE_FROM_SLICES;
  }

  /** The measured span's points (from the end of slow start, for measureS), or null while slow start lasts. */
  private span(): { from: Point; until: number; points: Point[] } | null {
    const from = this.endIndex === null ? undefined : this.points[this.endIndex];
    if (this.endIndex === null || !from) return null;
    const until = from.t + this.measureS;
    return { from, until, points: this.points.slice(this.endIndex).filter((p) => p.t <= until + 1e-9) };
  }

  /** In the few-slices regime, whether a slice after the first grew past it by more than AGREE. */
  private grewAfterStart(): boolean {
    const sp = this.span();
    if (!sp || this.averaged) return false;
    const slices = sliceRates(sp.points, this.minSliceS);
    const first = slices[0];
    if (!first) return false;
    for (const x of slices.slice(1)) {
      if (x.r > (1 + AGREE) * first.r) return true;
      if (x.r < (1 - AGREE) * first.r) return false; // a stall ends the measurement first
    }
    return false;
  }

  estimate(): CapacityEstimate {
    const none: CapacityEstimate = { state: 'slow-start', slowStartEndS: null, fromS: null, toS: null, bitsPerSecond: null, sliceRange: null };
    const sp = this.span();
    if (!sp) return none;
    const { from, until } = sp;
    const to = sp.points.at(-1) ?? from;
    const slices = sliceRates(sp.points, this.minSliceS);
    const base = {
      slowStartEndS: from.t,
      fromS: from.t,
      sliceRange: slices.length >= 2 ? { min: Math.min(...slices.map((x) => x.r)), max: Math.max(...slices.map((x) => x.r)) } : null,
    };
    if (this.averaged) {
      // Many slices (a short RTT): the median slice, or window of three slices where a slice holds two RTTs or
      // more (the header says why). Retransmissions and a queue that ran dry take from the span's mean: on the
      // harness the mean read 0.80-0.96 of the tbf payload rate where the median is the bottleneck busy, which is
      // the capacity asked for.
      const windows = this.windowed ? windowRates(sp.points, WINDOW_SLICES * this.sliceS - (this.sliceS - this.minSliceS)) : [];
      const rate =
        windows.length >= 3
          ? median(windows)
          : slices.length >= 3
            ? median(slices.map((x) => x.r))
            : to.t > from.t
              ? ((to.bytes - from.bytes) * 8) / (to.t - from.t)
              : null;
      return { ...base, state: to.t >= until - 1e-9 ? 'done' : 'measuring', toS: to.t, bitsPerSecond: rate };
    }
    // Few slices (a long RTT): the first after slow start is the path full before its queue overflowed; a loss
    // then holds the receiver's bytes back for an RTT or more. Keep the leading slices that agree with the first.
    const first = slices[0];
    if (!first) return { ...base, state: 'measuring', toS: to.t, bitsPerSecond: null };
    let agreed = 1;
    while (agreed < slices.length && Math.abs((slices[agreed]?.r ?? 0) / first.r - 1) <= AGREE) agreed++;
    // (A slice that grew past the first restarts the search in add(): only a stall ends it here.)
    const last = slices[agreed - 1] ?? first;
    const settled = agreed < slices.length || agreed >= MEASURE_RTTS || to.t >= until - 1e-9;
    const bits = slices.slice(0, agreed).reduce((sum, x) => sum + x.r * (x.b - x.a), 0);
    return { ...base, state: settled ? 'done' : 'measuring', toS: last.b, bitsPerSecond: bits / (last.b - first.a) };
  }

  /**
   * At the end of a tuned run that never stopped speeding up: its last slice's rate, a floor of the
   * path's (state stays `slow-start`); the estimate as it is otherwise.
   */
  final(): CapacityEstimate {
    const e = this.estimate();
    const to = this.points.at(-1);
    const from = to ? this.points[indexBefore(this.points, to.t - this.minSliceS) ?? 0] : undefined;
    if (e.state !== 'slow-start' || !to || !from) return e;
    return { ...e, fromS: from.t, toS: to.t, bitsPerSecond: rateBetween(from, to) };
  }

  /** The receiver's rate per slice over the whole tuned run, bit/s at each slice's end (s): how it went, for the result. */
  slices(): { t: number; bitsPerSecond: number }[] {
    const out: { t: number; bitsPerSecond: number }[] = [];
    let a = this.points[0];
    for (const b of this.points.slice(1)) {
      if (!a || b.t - a.t < this.minSliceS - 1e-9) continue;
      const r = rateBetween(a, b);
      if (r !== null) out.push({ t: b.t, bitsPerSecond: r });
      a = b;
    }
    return out.slice(-MAX_SLICES_KEPT);
  }

  /** Index of the first point starting a slice that carried < GROWTH × the slice before it (both carrying data). */
  /**
   * Slow start's end once a slice that did not grow is followed by one that did not either (long-RTT slow start
   * comes in bursts, one flight per RTT: a slice may catch two flights and the next one, so one slice can mislead).
   */
  private confirmSlowStartEnd(): number | null {
    const c = this.candidate;
    const p = this.points;
    const last = p.at(-1);
    if (c && last) {
      const [mid, k] = [p[c.mid], p[c.k]];
      if (!mid || !k || last.t - k.t < this.minSliceS) return null;
      const first = rateBetween(mid, k);
      const next = rateBetween(k, last);
      this.candidate = null;
      if (first !== null && next !== null && next < GROWTH * first) return c.mid;
    }
    const found = this.findSlowStartEnd();
    if (found) this.candidate = found;
    return null;
  }

  private findSlowStartEnd(): { mid: number; k: number } | null {
    const p = this.points;
    const k = p.length - 1;
    const last = p[k];
    if (!last) return null;
    const mid = indexBefore(p, last.t - this.minSliceS);
    const midPoint = mid === null ? undefined : p[mid];
    if (mid === null || !midPoint) return null;
    const start = indexBefore(p, midPoint.t - this.minSliceS);
    const startPoint = start === null ? undefined : p[start];
    if (!startPoint) return null;
    const now = rateBetween(midPoint, last);
    const before = rateBetween(startPoint, midPoint);
    if (now === null || before === null || before <= 0 || now <= 0) return null;
    // The slice that did not grow is the first with the path full: measuring starts at its start.
    return now < GROWTH * before ? { mid, k } : null;
  }
}

function median(xs: number[]): number {
  const v = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? (v[mid] ?? 0) : ((v[mid - 1] ?? 0) + (v[mid] ?? 0)) / 2;
}

/** Latest index whose time is at or before t; null when none. */
function indexBefore(p: Point[], t: number): number | null {
  for (let i = p.length - 1; i >= 0; i--) if ((p[i]?.t ?? Infinity) <= t + 1e-9) return i;
  return null;
}

function rateBetween(a: Point, b: Point): number | null {
  return b.t > a.t ? ((b.bytes - a.bytes) * 8) / (b.t - a.t) : null;
}

/** The rate (bit/s) over a window of at least `windowS` starting at each point, for the windows that end inside the points. */
function windowRates(span: Point[], windowS: number): number[] {
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < span.length; i++) {
    const a = span[i];
    if (!a) break;
    j = Math.max(j, i + 1);
    while (j < span.length && (span[j]?.t ?? Infinity) - a.t < windowS - 1e-9) j++;
    const b = span[j];
    if (!b) break;
    const r = rateBetween(a, b);
    if (r !== null) out.push(r);
  }
  return out;
}

/** Consecutive slices of at least `sliceS` over the points: start, end (s) and rate (bit/s). */
function sliceRates(span: Point[], sliceS: number): { a: number; b: number; r: number }[] {
  const out: { a: number; b: number; r: number }[] = [];
  let a = span[0];
  for (const b of span.slice(1)) {
    if (!a || b.t - a.t < sliceS - 1e-9) continue;
    const r = rateBetween(a, b);
    if (r !== null) out.push({ a: a.t, b: b.t, r });
    a = b;
  }
  return out;
}
