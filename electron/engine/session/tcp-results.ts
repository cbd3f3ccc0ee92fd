/**
 * Adds the native figures to a built result: each stream end's socket report
 * and TCP_INFO series, the window summary, the list of figures that could not
 * be measured (and why), and the limiter diagnosis.
 */
import type { EndView, LonghaulResult, Side, TcpSample, UnavailableField } from '../../contract/result.js';
import type { StreamEnd } from '../../protocol/messages.js';
import { ZERO_COPY_FIELD } from '../../contract/send-path.js';
import { diagnoseResult } from '../../analysis/diagnosis.js';
import { summarizeMss, type MssEnd } from '../../analysis/mss-summary.js';
import { summarizePacing, type PacedEnd } from '../../analysis/pacing-summary.js';
import { summarizeUdpWindow, summarizeWindow } from '../../analysis/window-summary.js';
import { summarizeDelay } from '../../analysis/delay-summary.js';

function addUnavailable(list: UnavailableField[], u: UnavailableField): void {
  if (!list.some((x) => x.side === u.side && x.field === u.field && x.reason === u.reason)) list.push(u);
}

/**
 * A sending end's call (contract/send-path.ts) onto its view; returns why -Z was not honoured there when it
 * was asked (the end's own words, or that it did not say), else null.
 */
function foldSendPath(view: EndView, end: StreamEnd | undefined, asked: boolean): string | null {
  if (end?.sendPath) view.sendPath = end.sendPath.path;
  if (!asked || view.sendPath === 'sendfile') return null;
  if (!end?.sendPath) return `the ${view.side} did not say how it sent (iperf3, or a Longhaul older than -Z): unknown`;
  return end.sendPath.reason ?? 'it copied';
}

/**
 * Mutates `result` (fresh from RunRecorder.build) in place. `tcpOf` gives an end's TCP_INFO series (one
 * reading per kept interval); `advertised` the receive windows the senders saw (the range is what counts).
 */
export function attachTcpFields(
  result: LonghaulResult,
  tcpOf: (side: Side, id: number) => TcpSample[],
  ends: Record<Side, StreamEnd[] | null>,
  advertised: (number | null)[],
): void {
  const unavailable: UnavailableField[] = [];
  const reports = [];
  const mssEnds: MssEnd[] = [];
  const pacedEnds: PacedEnd[] = [];
  const udp = result.params.protocol === 'udp';
  /** UDP: each receiving socket's SO_RCVBUF (null: its end did not say), and whether each receiving side is Linux. */
  const udpRcvBufs: (number | null)[] = [];
  const udpLinux: boolean[] = [];
  for (const s of result.streams) {
    for (const [view, role] of [
      [s.send, 'send'],
      [s.receive, 'receive'],
    ] as [EndView | null, 'send' | 'receive'][]) {
      if (!view) continue;
      const end = ends[view.side]?.find((e) => e.id === s.id && e.role === role);
      if (end?.socket) {
        view.socket = end.socket;
        reports.push(end.socket);
        mssEnds.push({ side: view.side, sends: role === 'send', report: end.socket });
        for (const u of end.socket.unavailable) addUnavailable(unavailable, { side: view.side, ...u });
      } else if (udp) {
        // UDP has no TCP socket report: the receiving socket's buffer is the one figure its end gives.
        if (role === 'receive' && ends[view.side]) {
          udpRcvBufs.push(end?.udp?.receiveBufferBytes ?? null);
          udpLinux.push(result[view.side].os?.platform === 'linux');
        }
      } else if (ends[view.side]) {
        addUnavailable(unavailable, {
          side: view.side,
          field: 'socket',
          reason: `the ${view.side} sent no socket report (a Longhaul version without the native addon support)`,
        });
      }
      const series = tcpOf(view.side, s.id);
      if (series.length) view.tcp = series;
      if (role === 'send' && ends[view.side]) {
        const why = foldSendPath(view, end, result.params.zeroCopy === true);
        if (why) addUnavailable(unavailable, { side: view.side, field: ZERO_COPY_FIELD, reason: why });
        pacedEnds.push({ side: view.side, pacing: end?.pacing ?? null, kernelRates: series.map((t) => t.pacingRateBitsPerSecond) });
      }
    }
  }
  if (udp) {
    result.window = summarizeUdpWindow(result.params.windowBytes, udpRcvBufs, udpLinux.length > 0 && udpLinux.every(Boolean));
    delete result.mss; // datagrams have no MSS: their size is -l
  } else {
    result.window = summarizeWindow(result.params.windowBytes, reports, advertised, result.link !== undefined);
    result.mss = summarizeMss(result.params.mssBytes ?? null, mssEnds);
  }
  const pacing = summarizePacing(result, pacedEnds);
  if (pacing) result.pacing = pacing;
  result.unavailable = unavailable;
  // A path rate the user gave (--path-rate) is the link's rate for the verdict, as an emulated link's is.
  result.diagnosis = diagnoseResult(result, result.pathRate?.bitsPerSecond ?? null);
  const delay = summarizeDelay(result);
  if (delay) result.delay = delay;
}
