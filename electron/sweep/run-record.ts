/** One run's result as a sweep keeps it: its status, its headline figures, its verdicts. */
import type { ErrorInfo, LonghaulResult } from '../contract/result.js';
import type { SweepCellSettings, SweepRunRecord, SweepRunStatus } from '../contract/sweep.js';
import type { SweepRunKey } from '../contract/sweep-plan.js';

/**
 * `done`: complete; `partial`: cut short but something was measured; `failed`: nothing
 * measured (never connected, refused, broke before the first interval).
 */
function runStatus(r: LonghaulResult): SweepRunStatus {
  if (!r.partial) return 'done';
  return r.total.bytes > 0 || r.intervals.length > 0 ? 'partial' : 'failed';
}

export function recordOfResult(key: SweepRunKey, sequence: number, settings: SweepCellSettings, result: LonghaulResult): SweepRunRecord {
  return {
    ...key,
    sequence,
    settings,
    status: runStatus(result),
    startedAt: result.startedAt,
    endedAt: result.endedAt,
    bitsPerSecond: result.total.bitsPerSecond,
    streamSumBitsPerSecond: result.total.streamSumBitsPerSecond,
    verdicts: (result.diagnosis ?? []).map((d) => d.verdict),
    error: result.errors[0] ?? (result.partial ? { code: 'LH_ERR_STOPPED', message: result.partialReason ?? 'partial' } : null),
    result,
  };
}

/** A run that produced no result at all (its relay or responder could not be started). */
export function recordOfFailure(key: SweepRunKey, sequence: number, settings: SweepCellSettings, startedAt: Date, error: ErrorInfo): SweepRunRecord {
  return {
    ...key,
    sequence,
    settings,
    status: 'failed',
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    bitsPerSecond: null,
    streamSumBitsPerSecond: null,
    verdicts: [],
    error,
    result: null,
  };
}
