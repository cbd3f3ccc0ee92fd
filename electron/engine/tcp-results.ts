/**
 * Adds the native figures to a built result: each stream end's socket report
 * and TCP_INFO series, the window summary, the list of figures that could not
 * be measured (and why), and the limiter diagnosis.
 */
import type { EndView, LonghaulResult, Side, TcpSample, UnavailableField } from '../contract/result.js';
import type { StreamEnd } from '../protocol/messages.js';
import type { SideSample } from './data-plane.js';
import { diagnoseResult } from './diagnosis.js';
import { summarizeMss, type MssEnd } from './mss-summary.js';
import { summarizeWindow } from './window-summary.js';

/** One end's TCP_INFO series from that side's samples, one reading per interval index. */
function seriesOf(samples: SideSample[], id: number): TcpSample[] {
  const out: TcpSample[] = [];
  for (const s of samples) {
    const hit = s.tcp?.find((e) => e[0] === id)?.[1];
    if (hit && (out.length === 0 || hit.index > out[out.length - 1]!.index)) out.push(hit);
  }
  return out;
}

function addUnavailable(list: UnavailableField[], u: UnavailableField): void {
  if (!list.some((x) => x.side === u.side && x.field === u.field && x.reason === u.reason)) list.push(u);
}

/** Mutates `result` (fresh from RunRecorder.build) in place. */
export function attachTcpFields(result: LonghaulResult, samples: Record<Side, SideSample[]>, ends: Record<Side, StreamEnd[] | null>): void {
  const unavailable: UnavailableField[] = [];
  const reports = [];
  const mssEnds: MssEnd[] = [];
  for (const s of result.streams) {
    for (const [view, role] of [[s.send, 'send'], [s.receive, 'receive']] as [EndView | null, 'send' | 'receive'][]) {
      if (!view) continue;
      const end = ends[view.side]?.find((e) => e.id === s.id && e.role === role);
      if (end?.socket) {
        view.socket = end.socket;
        reports.push(end.socket);
        mssEnds.push({ side: view.side, sends: role === 'send', report: end.socket });
        for (const u of end.socket.unavailable) addUnavailable(unavailable, { side: view.side, ...u });
      } else if (ends[view.side]) {
        addUnavailable(unavailable, { side: view.side, field: 'socket', reason: `the ${view.side} sent no socket report (a Longhaul version without the native addon support)` });
      }
      const series = seriesOf(samples[view.side], s.id);
      if (series.length) view.tcp = series;
    }
  }
  const advertised = result.streams.flatMap((s) => s.send?.tcp?.map((x) => x.sndWndBytes) ?? []);
  result.window = summarizeWindow(result.params.windowBytes, reports, advertised, result.link !== undefined);
  result.mss = summarizeMss(result.params.mssBytes ?? null, mssEnds);
  result.unavailable = unavailable;
  // A path rate the user gave (--path-rate) is the link's rate for the verdict, as an emulated link's is.
  result.diagnosis = diagnoseResult(result, result.pathRate?.bitsPerSecond ?? null);
}
