/**
 * The run's window line: what was asked for, whether every stream end got it
 * before the handshake, and the effective sizes the OS reports. Replaces the
 * placeholder the engine had before the native addon.
 */
import type { SocketReport, WindowInfo } from '../contract/result.js';
import { groupDigits } from '../contract/units.js';

export const OS_DEFAULT_NOTE = 'OS default (autotuning)';

function range(xs: (number | null)[]): { min: number; max: number } | null {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? { min: Math.min(...v), max: Math.max(...v) } : null;
}

function rangeText(r: { min: number; max: number }): string {
  return r.min === r.max ? `${groupDigits(r.min)} B` : `${groupDigits(r.min)}–${groupDigits(r.max)} B`;
}

/**
 * Say how the OS changed the request. Linux (known from the ends' TCP_INFO
 * source) doubles it after capping at net.core.rmem_max; elsewhere the size
 * normally reads back as requested.
 */
function adjustmentNote(requested: number, eff: { min: number; max: number }, linux: boolean): string {
  const same = eff.min === eff.max;
  if (linux) {
    if (same && eff.min === 2 * requested) return ' (Linux doubles the request for its own bookkeeping)';
    return ' (less than twice the request: Linux capped it at net.core.rmem_max / wmem_max before doubling)';
  }
  return same && eff.min === requested ? '' : ' (the OS adjusted the request)';
}

/**
 * Summarise the stream ends' socket reports. With no reports yet (before the
 * streams exist), says what was requested and that the outcome is pending.
 */
export function summarizeWindow(
  requestedBytes: number | null,
  reports: SocketReport[],
  advertisedSamples: (number | null)[] = [],
  viaProxy = false,
): WindowInfo {
  const effectiveRcvBufBytes = range(reports.map((r) => r.rcvBufBytes));
  const effectiveSndBufBytes = range(reports.map((r) => r.sndBufBytes));
  const advertisedBytes = range(advertisedSamples);
  // Through the delay proxy the senders' TCP talks to the proxy: its snd_wnd is the local hop's
  // (the proxy's relay buffer), not the emulated window (that is the link's `window` stage).
  const whose = viaProxy ? 'on the local hop to the delay proxy, not the emulated window' : "the senders' snd_wnd";
  const advertised = advertisedBytes ? `; advertised (${whose}) ${rangeText(advertisedBytes)}` : '';
  if (requestedBytes === null) {
    return { requestedBytes: null, applied: false, note: `${OS_DEFAULT_NOTE}${advertised}`, effectiveRcvBufBytes, effectiveSndBufBytes, advertisedBytes };
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
      note: `not applied on ${missed.length} of ${reports.length} stream ends, which use the ${OS_DEFAULT_NOTE}: ${why.join('; ') || 'reason unknown'}${advertised}`,
      effectiveRcvBufBytes,
      effectiveSndBufBytes,
      advertisedBytes,
    };
  }
  const clamps = range(reports.map((r) => r.windowClampBytes ?? null));
  const clamped = clamps !== null && reports.every((r) => typeof r.windowClampBytes === 'number');
  const eff = effectiveRcvBufBytes ? `; effective SO_RCVBUF ${rangeText(effectiveRcvBufBytes)}` : '';
  const linux = reports.every((r) => r.tcpInfoSource === 'linux-tcp_info');
  // With the clamp the buffers are 2 × the request by design; the clamp, not the buffer, is the window.
  const adjusted = clamped
    ? ` (advertised-window clamp TCP_WINDOW_CLAMP ${rangeText(clamps)}, buffers of twice it${reports.some((r) => r.buffersForced) ? ', set above net.core.rmem_max with SO_RCVBUFFORCE' : ''})`
    : effectiveRcvBufBytes
      ? adjustmentNote(requestedBytes, effectiveRcvBufBytes, linux)
      : '';
  return {
    requestedBytes,
    applied: true,
    note: `applied before the handshake on all ${reports.length} stream ends${eff}${adjusted}${advertised}`,
    effectiveRcvBufBytes,
    effectiveSndBufBytes,
    advertisedBytes,
  };
}
