/**
 * The run's setup lines in words, from their data: the window (asked, applied, what the OS made of
 * it), the MSS and the pacing. The analysis (analysis/*-summary.ts) decides the figures; every
 * word of these lines is written here, once, and saved as each block's `note` for the readers.
 */
import { bitrateText, PACING_KERNEL, type PacingInfo, type PacingSide } from './pacing-info.js';
import type { MssInfo, WindowInfo } from './result.js';
import { formatRateTick, groupDigits } from './units.js';

/** What the window line says when no window was asked. */
export const OS_DEFAULT_NOTE = 'OS default (autotuning)';

type Range = { min: number; max: number };

/** `17,520 B`, or `17,520–35,040 B` over several ends. */
function byteRangeText(r: Range): string {
  return r.min === r.max ? `${groupDigits(r.min)} B` : `${groupDigits(r.min)}–${groupDigits(r.max)} B`;
}

/**
 * How the OS changed the request. Linux (known from the ends' TCP_INFO source) doubles it after
 * capping at net.core.rmem_max; elsewhere the size normally reads back as requested.
 */
function adjustment(requested: number, eff: Range, linux: boolean): string {
  const same = eff.min === eff.max;
  if (linux) {
    if (same && eff.min === 2 * requested) return ' (Linux doubles the request for its own bookkeeping)';
    return ' (less than twice the request: Linux capped it at net.core.rmem_max / wmem_max before doubling)';
  }
  return same && eff.min === requested ? '' : ' (the OS adjusted the request)';
}

/** The window line after `Window: N bytes requested, `. */
export function windowNote(w: Omit<WindowInfo, 'note'>): string {
  const whose = w.viaProxy ? 'on the local hop to the delay proxy, not the emulated window' : "the senders' snd_wnd";
  const advertised = w.advertisedBytes ? `; advertised (${whose}) ${byteRangeText(w.advertisedBytes)}` : '';
  if (w.requestedBytes === null) return `${OS_DEFAULT_NOTE}${advertised}`;
  const ends = w.reportedEnds ?? 0;
  if (ends === 0) return 'not known to be applied: no stream end reported its socket';
  if (w.missedEnds) {
    const why = w.missedReasons?.join('; ') || 'reason unknown';
    return `not applied on ${w.missedEnds} of ${ends} stream ends, which use the ${OS_DEFAULT_NOTE}: ${why}${advertised}`;
  }
  const eff = w.effectiveRcvBufBytes ? `; effective SO_RCVBUF ${byteRangeText(w.effectiveRcvBufBytes)}` : '';
  // With the clamp the buffers are 2 × the request by design; the clamp, not the buffer, is the window.
  const adjusted = w.clampBytes
    ? ` (advertised-window clamp TCP_WINDOW_CLAMP ${byteRangeText(w.clampBytes)}, buffers of twice it${w.buffersForced ? ', set above net.core.rmem_max with SO_RCVBUFFORCE' : ''})`
    : w.effectiveRcvBufBytes
      ? adjustment(w.requestedBytes, w.effectiveRcvBufBytes, w.linuxEnds ?? false)
      : '';
  return `applied before the handshake on all ${ends} stream ends${eff}${adjusted}${advertised}`;
}

/**
 * A UDP run's receive-buffer line after `Receive buffer (-w): N bytes requested, `: `-w` is each
 * receiving socket's SO_RCVBUF (UDP has no window), set before the first datagram; what the OS made of it.
 */
export function udpWindowNote(w: Omit<WindowInfo, 'note'>): string {
  const got = w.effectiveRcvBufBytes;
  if (w.requestedBytes === null) return `OS default${got ? `; effective SO_RCVBUF ${byteRangeText(got)}` : ''}`;
  const ends = w.reportedEnds ?? 0;
  if (ends === 0 || !got) return 'not known to be applied: no receiving socket reported its buffer';
  const sockets = ends === 1 ? 'the receiving socket' : `all ${ends} receiving sockets`;
  return `set on ${sockets} before the first datagram; effective SO_RCVBUF ${byteRangeText(got)}${adjustment(w.requestedBytes, got, w.linuxEnds ?? false)}`;
}

/** The MSS line after `MSS: N bytes requested, `. */
export function mssNote(m: Omit<MssInfo, 'note'>): string {
  const used = m.sendMssBytes ? `; the senders used ${byteRangeText(m.sendMssBytes)}` : '; the MSS the senders used is unknown (the OS did not report it)';
  const path = m.pmtuBytes ? `, path MTU ${byteRangeText(m.pmtuBytes)}` : '';
  if (m.requestedBytes === null) return `OS default${used}${path}`;
  const ends = m.reportedEnds ?? 0;
  if (ends === 0) return 'not known to be applied: no stream end reported its socket';
  if (m.refusedEnds) return `refused on ${m.refusedEnds} of ${ends} stream ends (${m.refusedBy.join(' and ')}), which use the OS's own${used}${path}`;
  const advertised = m.advertisedMssBytes ? `; advertised ${byteRangeText(m.advertisedMssBytes)}` : '';
  return `applied before the handshake on all ${ends} stream ends${advertised}${used}${path}`;
}

function pacingSideText(s: PacingSide): string {
  const kernel =
    s.kernelPacingBitsPerSec !== null && s.mechanism === PACING_KERNEL ? `, TCP_INFO pacing rate at most ${formatRateTick(s.kernelPacingBitsPerSec)}` : '';
  if (s.mechanism === 'unknown') return `${s.side}: unknown (it did not say how it paced)`;
  const why = s.mechanism !== PACING_KERNEL && s.reason ? ` (${s.reason})` : '';
  return `${s.side}: ${s.mechanism}${why}${kernel}`;
}

/** The pacing line: the rate per stream, the most it allows in total, and how each side paced. */
export function pacingNote(p: Omit<PacingInfo, 'note'>, streams: number): string {
  const how = p.sides.length ? p.sides.map(pacingSideText).join('; ') : 'no sending stream reported how it was paced';
  return `${bitrateText(p.requestedBitsPerSec)} (at most ${formatRateTick(p.totalBitsPerSec)} over ${streams} stream${streams === 1 ? '' : 's'}); ${how}`;
}
