/**
 * The run's MSS line: what was asked for (TCP_MAXSEG on every stream end
 * before the handshake), whether each end's OS took it, and what the kernels
 * then used, from the stream ends' socket reports. Where an OS does not say,
 * the range is null, never a guess.
 */
import type { MssInfo, SocketReport } from '../contract/result.js';
import { groupDigits } from '../contract/units.js';

type Range = { min: number; max: number };

function range(xs: (number | null | undefined)[]): Range | null {
  const v = xs.filter((x): x is number => typeof x === 'number' && x > 0);
  return v.length ? { min: Math.min(...v), max: Math.max(...v) } : null;
}

function text(r: Range): string {
  return r.min === r.max ? `${groupDigits(r.min)} B` : `${groupDigits(r.min)}–${groupDigits(r.max)} B`;
}

/** One stream end as seen here: which side wrote it, and whether it sends. */
export interface MssEnd {
  side: 'controller' | 'responder';
  sends: boolean;
  report: SocketReport;
}

export function summarizeMss(requestedBytes: number | null, ends: MssEnd[]): MssInfo {
  const sendMssBytes = range(ends.filter((e) => e.sends).map((e) => e.report.sndMssBytes));
  const advertisedMssBytes = range(ends.map((e) => e.report.advMssBytes));
  const pmtuBytes = range(ends.map((e) => e.report.pmtuBytes));
  const used = sendMssBytes ? `; the senders used ${text(sendMssBytes)}` : '; the MSS the senders used is unknown (the OS did not report it)';
  const path = pmtuBytes ? `, path MTU ${text(pmtuBytes)}` : '';
  const refused = ends.filter((e) => e.report.mssApplied === false);
  const refusedBy = [...new Set(refused.map((e) => e.side))];
  const base = { requestedBytes, sendMssBytes, advertisedMssBytes, pmtuBytes, refusedBy };
  if (requestedBytes === null) return { ...base, applied: false, note: `OS default${used}${path}` };
  if (ends.length === 0) return { ...base, applied: false, note: 'not known to be applied: no stream end reported its socket' };
  if (refused.length) {
    return {
      ...base,
      applied: false,
      note: `refused on ${refused.length} of ${ends.length} stream ends (${refusedBy.join(' and ')}), which use the OS's own${used}${path}`,
    };
  }
  const advertised = advertisedMssBytes ? `; advertised ${text(advertisedMssBytes)}` : '';
  return { ...base, applied: true, note: `applied before the handshake on all ${ends.length} stream ends${advertised}${used}${path}` };
}
