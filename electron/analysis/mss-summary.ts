/**
 * The run's MSS: what was asked for (TCP_MAXSEG on every stream end before the handshake),
 * whether each end's OS took it, and what the kernels then used, from the stream ends' socket
 * reports. Where an OS does not say, the range is null, never a guess. Its words are
 * contract/setup-text.ts's.
 */
import type { MssInfo, SocketReport } from '../contract/result.js';
import { mssNote } from '../contract/setup-text.js';

type Range = { min: number; max: number };

function range(xs: (number | null | undefined)[]): Range | null {
  const v = xs.filter((x): x is number => typeof x === 'number' && x > 0);
  return v.length ? { min: Math.min(...v), max: Math.max(...v) } : null;
}

/** One stream end as seen here: which side wrote it, and whether it sends. */
export interface MssEnd {
  side: 'controller' | 'responder';
  sends: boolean;
  report: SocketReport;
}

export function summarizeMss(requestedBytes: number | null, ends: MssEnd[]): MssInfo {
  const refused = ends.filter((e) => e.report.mssApplied === false);
  const facts: Omit<MssInfo, 'note'> = {
    requestedBytes,
    applied: requestedBytes !== null && ends.length > 0 && refused.length === 0,
    sendMssBytes: range(ends.filter((e) => e.sends).map((e) => e.report.sndMssBytes)),
    advertisedMssBytes: range(ends.map((e) => e.report.advMssBytes)),
    pmtuBytes: range(ends.map((e) => e.report.pmtuBytes)),
    refusedBy: [...new Set(refused.map((e) => e.side))],
    reportedEnds: ends.length,
    refusedEnds: refused.length,
  };
  return { ...facts, note: mssNote(facts) };
}
