/**
 * The run's window: what was asked for, whether every stream end got it before the handshake,
 * and the effective sizes the OS reports, as figures. Its words are contract/setup-text.ts's.
 */
import type { SocketReport, WindowInfo } from '../contract/result.js';
import { udpWindowNote, windowNote } from '../contract/setup-text.js';

function range(xs: (number | null)[]): { min: number; max: number } | null {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? { min: Math.min(...v), max: Math.max(...v) } : null;
}

/**
 * Summarise the stream ends' socket reports. With no reports yet (before the streams exist),
 * the request and that the outcome is pending.
 */
export function summarizeWindow(
  requestedBytes: number | null,
  reports: SocketReport[],
  advertisedSamples: (number | null)[] = [],
  viaProxy = false,
): WindowInfo {
  const missed = reports.filter((r) => !r.appliedBeforeHandshake);
  const clamps = range(reports.map((r) => r.windowClampBytes ?? null));
  const facts: Omit<WindowInfo, 'note'> = {
    requestedBytes,
    applied: requestedBytes !== null && reports.length > 0 && missed.length === 0,
    effectiveRcvBufBytes: range(reports.map((r) => r.rcvBufBytes)),
    effectiveSndBufBytes: range(reports.map((r) => r.sndBufBytes)),
    // Through the delay proxy the senders' TCP talks to the proxy: its snd_wnd is the local hop's
    // (the proxy's relay buffer), not the emulated window (that is the link's `window` stage).
    advertisedBytes: range(advertisedSamples),
    reportedEnds: reports.length,
    missedEnds: requestedBytes === null ? 0 : missed.length,
    missedReasons: [...new Set(missed.flatMap((r) => r.unavailable.filter((u) => u.field === 'window').map((u) => u.reason)))],
    clampBytes: clamps !== null && reports.every((r) => typeof r.windowClampBytes === 'number') ? clamps : null,
    buffersForced: reports.some((r) => r.buffersForced === true),
    linuxEnds: reports.length > 0 && reports.every((r) => r.tcpInfoSource === 'linux-tcp_info'),
    viaProxy,
  };
  return { ...facts, note: windowNote(facts) };
}

/**
 * A UDP run's `-w`: each receiving socket's SO_RCVBUF as its OS reported it at the end (null: that
 * end did not say). `linux`: every receiving end is Linux (which doubles the request).
 */
export function summarizeUdpWindow(requestedBytes: number | null, rcvBufs: (number | null)[], linux: boolean): WindowInfo {
  const known = rcvBufs.filter((x): x is number => x !== null);
  const facts: Omit<WindowInfo, 'note'> = {
    requestedBytes,
    applied: requestedBytes !== null && rcvBufs.length > 0 && known.length === rcvBufs.length,
    effectiveRcvBufBytes: range(known),
    effectiveSndBufBytes: null,
    advertisedBytes: null,
    reportedEnds: known.length,
    missedEnds: 0,
    missedReasons: [],
    clampBytes: null,
    buffersForced: false,
    linuxEnds: linux,
    viaProxy: false,
  };
  return { ...facts, note: udpWindowNote(facts) };
}
