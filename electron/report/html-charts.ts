/**
 * The HTML report's charts from a result: throughput over time (receiver's
 * bytes per interval), the senders' RTT and congestion window over time, and
 * the what-if curve with the measured point on it. Each returns inline SVG.
 */
import type { LonghaulResult, TcpSample } from '../contract/result.js';
import { whatIfCurves, whatIfOf, windowTickLabel } from '../contract/what-if-result.js';
import { whatIfAxisNote } from '../contract/what-if-text.js';
import { lossPercentPoints, rateView, totalRatePoints } from '../contract/interval-rates.js';
import { groupDigits } from '../contract/units.js';
import { esc, svgLineChart, type SvgSeries } from './html-svg.js';

const COLORS = ['#0b5fff', '#e8590c', '#2f9e44', '#ae3ec9'] as const;
const mbit = (v: number): string => `${Number(v.toPrecision(3))}`;

/** Received Mbit/s per interval (sum over streams), against the interval's end; sent where no receiver reported. */
export function throughputChart(r: LonghaulResult): string {
  // The Results screen's chart draws the same points (contract/interval-rates.ts).
  const view = rateView(r);
  const points = totalRatePoints(r).map(([t, bps]): [number, number] => [t, bps / 1e6]);
  return svgLineChart({
    title:
      view === 'sent'
        ? 'Throughput over time (sent by this PC, all streams: the other end reported no intervals; Mbit = 10^6 bit)'
        : 'Throughput over time (received, all streams; Mbit = 10^6 bit)',
    xTitle: view === 'sent' ? "seconds since start (sender's clock)" : 'seconds since start (receiver clock)',
    yTitle: 'Mbit/s',
    series: [{ label: view, color: COLORS[0], points }],
    yFormat: mbit,
    xFormat: (v) => v.toFixed(v < 10 ? 1 : 0),
  });
}

/** A UDP run: the datagrams lost per interval, % of those numbered in it, all streams (the Results chart's right-hand line). */
export function lossChart(r: LonghaulResult): string {
  return svgLineChart({
    title: 'Datagrams lost per interval (% of those numbered in the interval, all streams)',
    xTitle: 'seconds since start (receiver clock)',
    yTitle: '%',
    series: [{ label: 'datagrams lost', color: COLORS[1], points: lossPercentPoints(r) }],
    yFormat: (v) => String(Number(v.toPrecision(3))),
    xFormat: (v) => v.toFixed(v < 10 ? 1 : 0),
  });
}

/** The first sending stream's smoothed RTT (ms) and cwnd (bytes) over time, as two charts. */
export function tcpCharts(r: LonghaulResult): string {
  const series = r.streams.find((s) => s.send?.tcp?.length)?.send?.tcp ?? [];
  if (!series.length) return '<p class="muted">RTT and congestion window: not measured in this run (no TCP_INFO).</p>';
  const points = (value: (x: TcpSample) => number | null): [number, number][] =>
    series.flatMap((x): [number, number][] => {
      const v = value(x);
      return v === null ? [] : [[x.t, v]];
    });
  const rtt = points((x) => (x.rttUs === null ? null : x.rttUs / 1000));
  const cwnd = points((x) => x.sndCwndBytes);
  const wnd = points((x) => x.sndWndBytes);
  const x = { xTitle: "seconds since start (sender's clock)", xFormat: (v: number) => v.toFixed(v < 10 ? 1 : 0) };
  return (
    svgLineChart({
      title: 'Smoothed RTT (stream 0, sender)',
      yTitle: 'ms',
      series: [{ label: 'RTT', color: COLORS[1], points: rtt }],
      yFormat: (v) => String(Number(v.toPrecision(3))),
      ...x,
    }) +
    svgLineChart({
      title: 'Congestion window and peer window (stream 0, sender)',
      yTitle: 'bytes',
      series: [
        { label: 'cwnd', color: COLORS[2], points: cwnd },
        { label: 'advertised window (snd_wnd)', color: COLORS[3], points: wnd },
      ],
      yFormat: (v) => groupDigits(v),
      ...x,
    })
  );
}

/** Predicted rate over window sizes for today's streams and 4× them, with the measured run marked. */
export function whatIfChart(r: LonghaulResult): string {
  const w = whatIfOf(r);
  if (!w) return '<p class="muted">What-if: no RTT was measured, so there is nothing to model.</p>';
  const curves = whatIfCurves(w);
  const { lines, measured } = curves;
  const note = whatIfAxisNote(curves);
  const series: SvgSeries[] = lines.map((l, i) => ({
    label: `model, ${l.streams} stream${l.streams === 1 ? '' : 's'}`,
    color: COLORS[i % COLORS.length] ?? COLORS[0],
    points: l.points.map(([x, y]): [number, number] => [x, y / 1e6]),
    dashed: true,
  }));
  const chart = svgLineChart({
    title: 'What-if: predicted throughput by window per stream (payload, after slow start)',
    xTitle: 'window per stream, bytes (log scale)',
    yTitle: 'Mbit/s',
    series,
    logX: true,
    yFormat: mbit,
    xFormat: windowTickLabel,
    ...(measured
      ? { marks: [{ x: measured.windowBytes, y: measured.bitsPerSecond / 1e6, label: `measured ${mbit(measured.bitsPerSecond / 1e6)} Mbit/s` }] }
      : {}),
    ...(curves.yAxis ? { yMax: curves.yAxis.max / 1e6 } : {}),
  });
  return note ? `${chart}<p class="muted" data-what-if-axis>${esc(note)}</p>` : chart;
}
