/**
 * Whether a run's result document is a result at all. A run that ended before
 * any byte moved (the partner is not paired, the address refused or does not
 * exist, TLS failed, the responder refused the parameters, the user stopped it
 * while connecting) measured nothing: showing it as "Results (partial)" full of
 * "unknown" and storing a 0-byte run in History tells the user nothing. The app
 * reports it as a failed start instead (contract/api.ts `RunFailed`).
 *
 * A run that moved bytes and then failed is still a partial result.
 */
import type { RunPhase } from '../contract/api.js';
import type { LonghaulErrorCode } from '../contract/error-codes.js';
import type { LonghaulResult } from '../contract/result.js';

/** Phases at or after which the data was flowing (the engine's session order). */
const DATA_PHASES: readonly RunPhase[] = ['running', 'results', 'done'];

/** True when no stream end and no interval counted a byte, in either direction. */
export function noByteMoved(r: LonghaulResult): boolean {
  if (r.total.bytes > 0 || r.total.sentBytes > 0) return false;
  if (r.streams.some((s) => s.bytes > 0 || (s.send?.bytes ?? 0) > 0 || (s.receive?.bytes ?? 0) > 0)) return false;
  return !r.intervals.some((iv) => (iv.sentBytes ?? 0) > 0 || (iv.receivedBytes ?? 0) > 0);
}

/**
 * The failure of a run that ended before any data moved, or null when the result is a result.
 * Rule: no byte moved in any direction AND (the run recorded an error, or it never reached
 * 'running'). `lastPhase` is the last phase the host saw (null: none).
 * The error is the first one the run recorded: the cause, not its consequences.
 */
export function failedBeforeData(r: LonghaulResult, lastPhase: RunPhase | null): { code: LonghaulErrorCode; message: string } | null {
  if (!noByteMoved(r)) return null;
  const reachedData = lastPhase !== null && DATA_PHASES.includes(lastPhase);
  const first = r.errors[0];
  if (!first && reachedData) return null;
  if (first) return { code: first.code as LonghaulErrorCode, message: first.message };
  return { code: 'LH_ERR_STOPPED', message: r.partialReason ?? 'the run ended before any data moved' };
}
