/**
 * How much per-interval detail a result keeps (docs/results.md, "Detail"):
 * every interval and every TCP_INFO reading of the first `headIndex` ticks,
 * where headIndex × streams ≈ HEAD_CELLS (at least MIN_HEAD ticks), and of
 * the last RECENT ticks; between them, groups of `ticks` ticks merged into one
 * interval each (bytes summed: totals stay exact) and one reading per stream
 * end (the group's last, with the range of its RTT, cwnd and advertised
 * window). `ticks` doubles whenever the groups pass headIndex, so a result
 * holds at most about 2 × headIndex + 2 × RECENT intervals however long the run.
 * With HEAD_CELLS = 4,096 that is about 8,200 stream-intervals (~11 MB of
 * JSON) whatever the duration (docs/measurements.md#detail-cells).
 */
import { mergeUdpIntervals } from '../contract/udp.js';
import type { DetailInfo, IntervalResult, IntervalStream, TcpSample, TcpSpread } from '../contract/result.js';

/** Shared by all series of one run: the head's last tick and the group size (a power of two). */
export interface Grouping {
  headIndex: number;
  ticks: number;
  /** Entries kept as they came at the end of each series. */
  recent: number;
}

/** Stream-intervals kept as they came at the start of a run. */
export const HEAD_CELLS = 4096;
/** Fewest ticks kept as they came at the start, whatever the stream count. */
const MIN_HEAD = 64;
/** Ticks kept as they came at the end of a run (the live reports finish from these). */
const RECENT = 64;

/** The grouping for a run of `streams` streams; `headCells` overrides HEAD_CELLS (tests). */
export function groupingFor(streams: number, headCells = HEAD_CELLS): Grouping {
  return { headIndex: Math.max(MIN_HEAD, Math.floor(headCells / Math.max(1, streams))), ticks: 1, recent: RECENT };
}

/** The result's `detail` field: what was kept, in numbers and words. `recentFromIndex`: the first tick of the recent window. */
export function detailInfo(g: Grouping, recentFromIndex: number | null): DetailInfo {
  const thinned = g.ticks > 1;
  return {
    thinned,
    fullThroughIndex: g.headIndex,
    ticksPerInterval: g.ticks,
    recentFromIndex: thinned ? recentFromIndex : null,
    note: thinned
      ? `ticks 1-${g.headIndex} and from ${recentFromIndex ?? '-'} on as sampled; between them one interval and one TCP_INFO reading per stream end per ${g.ticks} ticks`
      : 'every tick as sampled',
  };
}

function sumOrNull(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : a + b;
}

/** Retransmits add up (unknown in either part: unknown), the cwnd is the later end's; nothing where neither part had readings. */
function mergedTcp(a: IntervalStream, b: IntervalStream): Partial<IntervalStream> {
  if (a.retransSegments === undefined && b.retransSegments === undefined) return {};
  const ra = a.retransSegments ?? null;
  const rb = b.retransSegments ?? null;
  const source = a.retransSource === 'estimated' || b.retransSource === 'estimated' ? 'estimated' : (b.retransSource ?? a.retransSource);
  return { retransSegments: ra === null || rb === null ? null : ra + rb, ...(source ? { retransSource: source } : {}), cwndBytes: b.cwndBytes ?? null };
}

/** Two neighbouring intervals as one: bytes and seconds add up, the end is the later one's. */
export function mergeIntervals(a: IntervalResult, b: IntervalResult): IntervalResult {
  const byId = new Map<number, IntervalStream>(a.streams.map((s) => [s.id, s]));
  const streams = b.streams.map((s) => {
    const e = byId.get(s.id);
    return e
      ? {
          id: s.id,
          sentBytes: sumOrNull(e.sentBytes, s.sentBytes),
          receivedBytes: sumOrNull(e.receivedBytes, s.receivedBytes),
          receiveCompletions: sumOrNull(e.receiveCompletions, s.receiveCompletions),
          ...mergedTcp(e, s),
          ...(e.udp || s.udp ? { udp: mergeUdpIntervals(e.udp, s.udp) } : {}),
        }
      : s;
  });
  return {
    ...b,
    seconds: a.seconds + b.seconds,
    streams,
    sentBytes: sumOrNull(a.sentBytes, b.sentBytes),
    receivedBytes: sumOrNull(a.receivedBytes, b.receivedBytes),
    ticks: (a.ticks ?? 1) + (b.ticks ?? 1),
  };
}

type Range = { min: number; max: number } | null;

function widen(r: Range | undefined, v: number | null): Range {
  if (v === null) return r ?? null;
  return r ? { min: Math.min(r.min, v), max: Math.max(r.max, v) } : { min: v, max: v };
}

function join(a: Range | undefined, b: Range | undefined): Range {
  return a && b ? { min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) } : (a ?? b ?? null);
}

function spreadOf(s: TcpSample): TcpSpread {
  return s.spread ?? { readings: 1, rttUs: widen(null, s.rttUs), sndCwndBytes: widen(null, s.sndCwndBytes), sndWndBytes: widen(null, s.sndWndBytes) };
}

/** Two neighbouring readings as one: the later reading (cumulative counters stay exact), with the range of the gauges. */
export function mergeTcp(a: TcpSample, b: TcpSample): TcpSample {
  const x = spreadOf(a);
  const y = spreadOf(b);
  return {
    ...b,
    spread: {
      readings: x.readings + y.readings,
      rttUs: join(x.rttUs, y.rttUs),
      sndCwndBytes: join(x.sndCwndBytes, y.sndCwndBytes),
      sndWndBytes: join(x.sndWndBytes, y.sndWndBytes),
    },
  };
}
