/**
 * The requested MSS on one socket: TCP_MAXSEG set before the handshake, so
 * the SYN (or, on a listener, every SYN-ACK it answers with) advertises it and
 * this end never sends larger segments. What the kernel then used is read
 * from TCP_INFO like every other figure; this file only says whether the
 * request was applied, and the OS's words when it was not.
 */
import type { NativeApi } from './native-api.js';

/** How the MSS request fared on one socket (or listener). */
export interface MssSetup {
  requestedBytes: number;
  applied: boolean;
  /** Why not, in the OS's words (null when applied). */
  reason: string | null;
}

/** Why this OS refused, beyond its error text: Windows documents TCP_MAXSEG as readable only. */
function refusalNote(platform: NodeJS.Platform, wine: string | null): string {
  if (wine) return ` (running under Wine ${wine}, which does not let a program set TCP_MAXSEG; Windows documents it as read-only too)`;
  if (platform === 'win32') return " (Windows lets an application read the MSS but not set it: there the path MTU and the partner's MSS decide it)";
  return '';
}

/** Set TCP_MAXSEG on `fd` (not yet connected, or a listener); never throws. */
export function applyMss(api: NativeApi, fd: number, bytes: number, platform: NodeJS.Platform = process.platform): MssSetup {
  if (!api.maxSeg)
    return { requestedBytes: bytes, applied: false, reason: 'this build of the native addon cannot set TCP_MAXSEG (rebuild it: npm run build:native)' };
  try {
    api.maxSeg.set(fd, bytes);
    return { requestedBytes: bytes, applied: true, reason: null };
  } catch (err) {
    return { requestedBytes: bytes, applied: false, reason: `${(err as Error).message}${refusalNote(platform, api.wineVersion)}` };
  }
}

/** The setup of an end whose MSS could not be requested at all (no addon, or a socket Node made). */
export function mssNotApplied(bytes: number | null | undefined, reason: string): MssSetup | null {
  return bytes ? { requestedBytes: bytes, applied: false, reason } : null;
}
