/**
 * The run's window line: what was asked for, whether every stream end got it
 * before the handshake, and the effective sizes the OS reports. Replaces the
 * placeholder the engine had before the native addon.
 */
import type { SocketReport, WindowInfo } from '../contract/result.js';
import { groupDigits } from '../util/units.js';

export const OS_DEFAULT_NOTE = 'OS default (autotuning)';

function range(xs: (number | null)[]): { min: number; max: number } | null {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? { min: Math.min(...v), max: Math.max(...v) } : null;
}

function rangeText(r: { min: number; max: number }): string {
  return r.min === r.max ? `${groupDigits(r.min)} B` : `${groupDigits(r.min)}–${groupDigits(r.max)} B`;
}

/**
 * Summarise the stream ends' socket reports. With no reports yet (before the
 * streams exist), says what was requested and that the outcome is pending.
 */
export function summarizeWindow(requestedBytes: number | null, reports: SocketReport[]): WindowInfo {
  const effectiveRcvBufBytes = range(reports.map((r) => r.rcvBufBytes));
  const effectiveSndBufBytes = range(reports.map((r) => r.sndBufBytes));
  if (requestedBytes === null) {
    return { requestedBytes: null, applied: false, note: OS_DEFAULT_NOTE, effectiveRcvBufBytes, effectiveSndBufBytes };
  }
  if (reports.length === 0) {
    return { requestedBytes, applied: false, note: 'not known to be applied: no stream end reported its socket', effectiveRcvBufBytes, effectiveSndBufBytes };
  }
  const missed = reports.filter((r) => !r.appliedBeforeHandshake);
  if (missed.length) {
    const why = [...new Set(missed.flatMap((r) => r.unavailable.filter((u) => u.field === 'window').map((u) => u.reason)))];
    return {
      requestedBytes,
      applied: false,
      note: `not applied on ${missed.length} of ${reports.length} stream ends, which use the ${OS_DEFAULT_NOTE}: ${why.join('; ') || 'reason unknown'}`,
      effectiveRcvBufBytes,
      effectiveSndBufBytes,
    };
  }
  const eff = effectiveRcvBufBytes ? `; effective SO_RCVBUF ${rangeText(effectiveRcvBufBytes)}` : '';
  const doubled = effectiveRcvBufBytes && effectiveRcvBufBytes.max >= 2 * requestedBytes ? ' (the OS doubles the request for its own bookkeeping)' : '';
  const capped = effectiveRcvBufBytes && effectiveRcvBufBytes.min < requestedBytes ? ' (capped by the OS maximum, e.g. net.core.rmem_max)' : '';
  return {
    requestedBytes,
    applied: true,
    note: `applied before the handshake on all ${reports.length} stream ends${eff}${doubled}${capped}`,
    effectiveRcvBufBytes,
    effectiveSndBufBytes,
  };
}
