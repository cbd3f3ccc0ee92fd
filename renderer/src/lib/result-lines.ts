/**
 * The Results screen's throughput-over-time chart, rebuilt from the result's
 * intervals (the live series are gone once a run is reopened from History):
 * the same lines as the Run screen's chart, the same points as the HTML report's.
 */
import { lossPercentPoints, rateView, streamRatePoints, totalRatePoints, type RatePoint } from '../../../electron/contract/interval-rates.js';
import type { LonghaulResult } from '../../../electron/contract/result.js';
import type { ChartLine, LineSet } from './chart-lines.js';

/** Streams drawn on their own, as on the Run screen: the fastest by bytes. */
const MAX_STREAM_LINES = 8;

const toPoints = (pts: RatePoint[]) => pts.map(([x, y]) => ({ x, y }));

/**
 * All streams received (sent, where no receiver reported), and on the right-hand axis the fastest
 * streams each, or for UDP the datagrams lost per interval (the streams' rates are in the table).
 */
export function resultLines(r: LonghaulResult): LineSet {
  if (r.params.protocol === 'udp') return udpLines(r);
  const perStream = streamRatePoints(r);
  const bytesOf = new Map(r.streams.map((s) => [s.id, s.bytes]));
  const ids = [...perStream.keys()]
    .sort((a, b) => (bytesOf.get(b) ?? 0) - (bytesOf.get(a) ?? 0) || a - b)
    .slice(0, MAX_STREAM_LINES)
    .sort((a, b) => a - b);
  const view = rateView(r);
  const all = toPoints(totalRatePoints(r));
  // One stream: its line is the aggregate's, drawn once.
  const parts = perStream.size > 1 ? ids.map((id): ChartLine => ({ label: `stream ${id}`, data: toPoints(perStream.get(id) ?? []), axis: 'parts' })) : [];
  return {
    lines: [{ label: 'all streams', data: all, axis: 'y' }, ...parts],
    yTitle: `all streams, ${view} (decimal bit/s)`,
    partsTitle: parts.length ? 'per stream (decimal bit/s)' : null,
    points: all.length,
    note: [
      view === 'sent' ? 'sent by this PC: the other end reported no intervals' : '',
      perStream.size > ids.length ? `showing the ${ids.length} fastest of ${perStream.size} streams` : '',
    ]
      .filter(Boolean)
      .join('; '),
  };
}

/** A UDP run: the rate that arrived and, beside it, the share of each interval's datagrams lost. */
function udpLines(r: LonghaulResult): LineSet {
  const view = rateView(r);
  const all = toPoints(totalRatePoints(r));
  const loss = toPoints(lossPercentPoints(r));
  return {
    lines: [{ label: 'all streams', data: all, axis: 'y' }, ...(loss.length ? [{ label: 'datagrams lost (%)', data: loss, axis: 'parts' as const }] : [])],
    yTitle: `all streams, ${view} (decimal bit/s)`,
    partsTitle: loss.length ? 'datagrams lost per interval (%)' : null,
    partsUnit: 'percent',
    points: all.length,
    note: [view === 'sent' ? 'sent by this PC: the other end reported no intervals' : '', loss.length ? '' : 'no receiver counted datagrams per interval']
      .filter(Boolean)
      .join('; '),
  };
}
