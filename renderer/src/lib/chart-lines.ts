/**
 * What the live chart draws, whatever the run: the aggregate line (thick, the
 * accent colour) and its parts — a single run's fastest streams on their own
 * right-hand axis (each is 1/N of the aggregate), or a group's peers on the
 * aggregate's axis (they add up to it, so one scale shows how they share it).
 */
import type { GroupSeries } from './group-series.js';
import type { LiveSeries, Point } from './live-series.js';

export interface ChartLine {
  label: string;
  data: Point[];
  /** `y`: the aggregate's axis; `parts`: the right-hand axis. */
  axis: 'y' | 'parts';
}

export interface LineSet {
  /** The aggregate first, then its parts. */
  lines: ChartLine[];
  /** Axis titles, with the unit. */
  yTitle: string;
  /** Title of the right-hand axis, or null when nothing is drawn on it. */
  partsTitle: string | null;
  /** What the right-hand axis counts: bit/s (absent), or a percentage (a UDP run's datagrams lost per interval). */
  partsUnit?: 'percent';
  /** Points of the aggregate line. */
  points: number;
  /** A caveat for the caption ('' for none). */
  note: string;
}

/**
 * A single run: all streams, and the fastest streams each on the right-hand axis; for UDP, the
 * datagrams lost per interval there instead (as Results draws it: lib/result-lines.ts).
 */
export function streamLines(series: LiveSeries): LineSet {
  if (series.udp) {
    return {
      lines: [
        { label: 'all streams', data: series.aggregate.slice(), axis: 'y' },
        { label: 'datagrams lost (%)', data: series.lossPercent.slice(), axis: 'parts' },
      ],
      yTitle: 'all streams (decimal bit/s)',
      partsTitle: 'datagrams lost per interval (%)',
      partsUnit: 'percent',
      points: series.aggregate.length,
      note: '',
    };
  }
  const ids = series.shownStreams();
  return {
    lines: [
      { label: 'all streams', data: series.aggregate.slice(), axis: 'y' },
      ...ids.map((id): ChartLine => ({ label: `stream ${id}`, data: (series.perStream.get(id) ?? []).slice(), axis: 'parts' })),
    ],
    yTitle: 'all streams (decimal bit/s)',
    partsTitle: 'per stream (decimal bit/s)',
    points: series.aggregate.length,
    note: series.streamCount > ids.length ? `showing the ${ids.length} fastest of ${series.streamCount} streams` : '',
  };
}

/** A group: all peers, and each peer named, on one axis. `names[i]` labels peer i. */
export function groupLines(series: GroupSeries, names: string[]): LineSet {
  return {
    lines: [
      { label: `all ${names.length} peers`, data: series.aggregate.slice(), axis: 'y' },
      ...series.peers.map((data, i): ChartLine => ({ label: names[i] ?? `peer ${i + 1}`, data: data.slice(), axis: 'y' })),
    ],
    yTitle: 'all peers and each peer (decimal bit/s)',
    partsTitle: null,
    points: series.aggregate.length,
    note: 'the aggregate is drawn once every peer has reported that interval',
  };
}
