/**
 * What `longhaul bdp` prints: the bandwidth-delay product of a path and the
 * window each OS needs for it, or the ceiling a given window imposes.
 * OS advice is what each system's documentation says, phrased as settings to
 * check, never as a claim about this PC (we have not looked at it).
 */
import { formatRate, groupDigits } from '../contract/units.js';
import { bdpBytes, MAX_UNSCALED_WINDOW, wholeBytesUp, windowCeilingBitsPerSec, windowScaleShift } from '../contract/path-math.js';

interface BdpQuery {
  rttSeconds: number;
  rateBitsPerSec?: number;
  windowBytes?: number;
}

function seconds(s: number): string {
  return `${Number(s.toPrecision(6))} s`;
}

/** Lines for a BDP query (rate → window needed; window → rate ceiling). */
export function formatBdpReport(q: BdpQuery): string {
  const lines: string[] = [];
  if (q.rateBitsPerSec !== undefined) {
    // Round up (a window one byte short does not fill the path), but not over floating-point dust: 4e6 × 1.3 / 8 is 650000.0000000001.
    const bytes = wholeBytesUp(bdpBytes(q.rateBitsPerSec, q.rttSeconds));
    const shift = windowScaleShift(bytes);
    lines.push(`Bandwidth-delay product: ${groupDigits(bytes)} bytes (${formatRate(q.rateBitsPerSec)} x ${seconds(q.rttSeconds)} / 8 bits per byte)`);
    lines.push(`A TCP window of at least ${groupDigits(bytes)} bytes per stream end is needed to fill this path with one stream.`);
    lines.push(
      bytes > MAX_UNSCALED_WINDOW
        ? `  That is above ${groupDigits(MAX_UNSCALED_WINDOW)} bytes: both ends must use TCP window scaling (RFC 7323), shift >= ${shift}.`
        : `  That fits in ${groupDigits(MAX_UNSCALED_WINDOW)} bytes: no window scaling needed.`,
    );
    lines.push('Window per OS (settings to check on both PCs):');
    lines.push(
      `  Windows 2000/XP: registry Tcpip\\Parameters TcpWindowSize (or AFD\\Parameters DefaultRcvWindow) = ${bytes}${bytes > MAX_UNSCALED_WINDOW ? ', and Tcp1323Opts = 1 (window scaling)' : ''}`,
    );
    lines.push(
      '  Windows Vista and later: receive-window autotuning sizes it; check `netsh interface tcp show global` (Receive Window Auto-Tuning Level: normal)',
    );
    lines.push(
      `  Linux: net.ipv4.tcp_rmem / tcp_wmem maximum (third value) >= ${groupDigits(bytes * 2)} bytes (about 2 x BDP: the kernel keeps part of a socket buffer for bookkeeping); net.core.rmem_max / wmem_max >= that for an explicit -w`,
    );
    lines.push(`  macOS: kern.ipc.maxsockbuf and net.inet.tcp.autorcvbufmax / autosndbufmax >= ${groupDigits(bytes * 2)} bytes`);
    lines.push(`  longhaul: -w ${bytes} asks for it per stream end (the result says whether it was applied)`);
  }
  if (q.windowBytes !== undefined) {
    const ceiling = windowCeilingBitsPerSec(q.windowBytes, q.rttSeconds);
    if (lines.length) lines.push('');
    lines.push(
      `Window ceiling: ${formatRate(ceiling)} per stream (${groupDigits(q.windowBytes)} bytes x 8 / ${seconds(q.rttSeconds)}: at most one window per round trip)`,
    );
    lines.push(`  ${ceiling.toFixed(0)} bit/s; N parallel streams can reach at most N times that.`);
  }
  return lines.join('\n') + '\n';
}
