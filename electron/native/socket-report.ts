/**
 * What one stream end's socket really is (effective buffers, MSS, window
 * scale) and its TCP_INFO at a tick, in the result contract's shapes. Every
 * figure the OS does not give is null and named in `unavailable` with why.
 */
import type { SocketReport, TcpSample } from '../contract/result.js';
import type { AppliedWindow } from './advertised-window.js';
import type { MssSetup } from './mss-setup.js';
import type { NativeApi, NativeTcpInfo } from './native-api.js';
import { missingSampleFields, sampleFrom } from './tcp-sample.js';

/** How the window request fared on this end before the handshake. */
export interface WindowSetup {
  requestedBytes: number | null;
  appliedBeforeHandshake: boolean;
  /** Why it was not applied (null when applied or not requested). */
  reason: string | null;
  /** What was set where it was applied (clamp, buffers); absent = buffers of `requestedBytes` only. */
  window?: AppliedWindow | null;
  /** The MSS request on this end (TCP_MAXSEG before the handshake); absent or null when none was made. */
  mss?: MssSetup | null;
}

const SOCKET_FIELDS = ['sndBufBytes', 'rcvBufBytes', 'sndMssBytes', 'rcvMssBytes', 'pmtuBytes', 'sndWscale', 'rcvWscale'] as const;

function emptyReport(w: WindowSetup, reason: string): SocketReport {
  return {
    requestedBytes: w.requestedBytes,
    appliedBeforeHandshake: w.appliedBeforeHandshake,
    sndBufBytes: null,
    rcvBufBytes: null,
    sndBufLocked: null,
    rcvBufLocked: null,
    sndMssBytes: null,
    rcvMssBytes: null,
    pmtuBytes: null,
    sndWscale: null,
    rcvWscale: null,
    wscaleNegotiated: null,
    congestionControl: null,
    tcpInfoSource: null,
    unavailable: [...SOCKET_FIELDS.map((field) => ({ field, reason })), { field: 'tcp', reason }, { field: 'congestionControl', reason }],
    ...(w.window ? { windowClampBytes: w.window.clampBytes, buffersForced: w.window.forced } : {}),
    ...(w.mss ? { mssRequestedBytes: w.mss.requestedBytes, mssApplied: w.mss.applied } : {}),
  };
}

/**
 * Describe a connected socket. `api` null: the addon is missing (`missingReason` says why);
 * `fd` null: the platform does not expose the descriptor.
 */
export function describeSocket(api: NativeApi | null, fd: number | null, w: WindowSetup, missingReason: string | null): SocketReport {
  if (!api) return emptyReport(w, missingReason ?? 'the native socket addon is not available');
  if (fd === null) return emptyReport(w, 'Node does not expose the socket descriptor on this platform');
  const r = emptyReport(w, '');
  r.unavailable = [];
  if (w.window?.cappedReason) r.unavailable.push({ field: 'window.advertised', reason: w.window.cappedReason });
  if (w.mss && !w.mss.applied)
    r.unavailable.push({ field: 'mss', reason: `the requested MSS of ${w.mss.requestedBytes} B was not applied: ${w.mss.reason ?? 'reason unknown'}` });
  try {
    const b = api.getBuffers(fd);
    Object.assign(r, { sndBufBytes: b.sndBufBytes, rcvBufBytes: b.rcvBufBytes, sndBufLocked: b.sndLocked, rcvBufLocked: b.rcvLocked });
  } catch (err) {
    r.unavailable.push({ field: 'socket.buffers', reason: (err as Error).message });
  }
  let info: NativeTcpInfo | null = null;
  try {
    info = api.tcpInfo(fd);
  } catch (err) {
    r.unavailable.push({ field: 'tcp', reason: tcpInfoFailure(api, err) });
  }
  if (info) {
    Object.assign(r, {
      sndMssBytes: info.sndMssBytes,
      rcvMssBytes: info.rcvMssBytes,
      pmtuBytes: info.pmtuBytes,
      advMssBytes: info.advMssBytes,
      sndWscale: info.sndWscale,
      rcvWscale: info.rcvWscale,
      wscaleNegotiated: info.wscaleNegotiated,
      tcpInfoSource: info.source,
    });
    if (r.sndMssBytes === null) r.sndMssBytes = maxSegOf(api, fd);
    for (const f of SOCKET_FIELDS) {
      if (r[f] === null && !f.endsWith('BufBytes')) r.unavailable.push({ field: f, reason: `not reported by ${info.source}` });
    }
    for (const f of missingSampleFields(info)) r.unavailable.push({ field: `tcp.${f}`, reason: `not reported by ${info.source}` });
  }
  if (!info) r.sndMssBytes = maxSegOf(api, fd);
  r.congestionControl = congestionOf(api, fd, r.unavailable);
  return r;
}

/** The socket's congestion control (Linux TCP_CONGESTION), or null with the reason added to `unavailable`. */
function congestionOf(api: NativeApi, fd: number, unavailable: SocketReport['unavailable']): string | null {
  const cc = api.congestionControl;
  if (!cc) {
    const reason = api.tcpInfoSource.startsWith('windows-')
      ? 'Windows sets the congestion control per TCP setting template (Get-NetTCPSetting), not per socket, and does not report it per socket'
      : 'this OS (or this build of the native addon) does not report the congestion control per socket';
    unavailable.push({ field: 'congestionControl', reason });
    return null;
  }
  try {
    return cc.get(fd);
  } catch (err) {
    unavailable.push({ field: 'congestionControl', reason: (err as Error).message });
    return null;
  }
}

/** The MSS in use as TCP_MAXSEG reads it on a connected socket: where TCP_INFO has no MSS (Wine), the OS still says it here. */
function maxSegOf(api: NativeApi, fd: number): number | null {
  try {
    const v = api.maxSeg?.get(fd) ?? null;
    return v !== null && v > 0 ? v : null;
  } catch {
    return null;
  }
}

/** Why TCP_INFO could not be read, naming Wine when it is Wine (not Windows) that lacks the call. */
function tcpInfoFailure(api: NativeApi, err: unknown): string {
  const message = (err as Error).message ?? String(err);
  return api.wineVersion ? `${message} (running under Wine ${api.wineVersion}, which does not implement SIO_TCP_INFO; Windows 10 1703 and later do)` : message;
}

/** One getsockopt: the socket's TCP_INFO as a sample, or null when it cannot be read (closed socket, no addon). */
export function readTcpSample(api: NativeApi | null, fd: number | null, index: number, t: number): TcpSample | null {
  if (!api || fd === null) return null;
  try {
    return sampleFrom(api.tcpInfo(fd), index, t);
  } catch {
    return null;
  }
}
