/**
 * The TCP lines of the CLI summary: per stream what the kernel used (MSS,
 * window scale, effective buffers, RTT while data flowed, last cwnd / peer window, retransmits),
 * and which figures were unavailable.
 */
import type { EndView, LonghaulResult, TcpSample } from '../contract/result.js';
import { transferRttSeconds } from '../analysis/limiter-inputs.js';
import { OS_DEFAULT_NOTE } from '../contract/setup-text.js';
import { retransText } from '../contract/retrans-text.js';
import { formatRtt, groupDigits } from '../contract/units.js';

/** Show at most this many streams' TCP lines; the JSON has them all. */
const MAX_STREAM_LINES = 8;

function bytes(n: number | null | undefined): string {
  return n === null || n === undefined ? 'unknown' : `${groupDigits(n)} B`;
}

function lastOf(series: TcpSample[] | undefined): TcpSample | null {
  return series?.at(-1) ?? null;
}

function endLine(label: string, v: EndView | null, rttSeconds: number | null): string | null {
  const s = v?.socket;
  if (!v || !s?.tcpInfoSource) return null;
  const buffers =
    s.requestedBytes === null
      ? OS_DEFAULT_NOTE
      : `SO_RCVBUF ${bytes(s.rcvBufBytes)} / SO_SNDBUF ${bytes(s.sndBufBytes)}${s.appliedBeforeHandshake ? '' : ` (${OS_DEFAULT_NOTE})`}`;
  const scale = s.sndWscale === null ? 'unknown' : `${s.rcvWscale}/${s.sndWscale}`;
  const t = lastOf(v.tcp);
  const live = !t
    ? ''
    : label === 'send'
      ? `, RTT ${rttSeconds === null ? 'unknown' : formatRtt(rttSeconds)}, cwnd ${bytes(t.sndCwndBytes)}, peer window ${bytes(t.sndWndBytes)}, retransmits ${retransText({ segments: t.totalRetransSegments, source: t.retransSource, bytesRetrans: t.bytesRetrans }, '')}${s.congestionControl ? `, ${s.congestionControl}` : ''}`
      : `, rcv_space ${bytes(t.rcvSpaceBytes)}`;
  return `    ${label.padEnd(7)} ${v.side.padEnd(10)} ${buffers}, MSS ${bytes(s.sndMssBytes)}, wscale rcv/snd ${scale}${live}`;
}

/** TCP lines for the run summary (empty when the result has no TCP figures at all); the limiter is the summary block's. */
export function formatTcpSummary(r: LonghaulResult): string[] {
  const lines: string[] = [];
  const streams = r.streams.filter((s) => s.send?.socket?.tcpInfoSource || s.receive?.socket?.tcpInfoSource);
  if (streams.length) {
    // The RTT is the one the limiter uses (median while data flowed), so one output has one RTT per stream.
    // Through the link emulator the kernels' sockets end at the emulator on this PC: their figures are that hop's.
    const hop = r.link ? ', on the local hop to the link emulator, not the emulated link' : '';
    lines.push('', `TCP as the kernels saw it (last reading; RTT: median while data was in flight${hop}):`);
    for (const s of streams.slice(0, MAX_STREAM_LINES)) {
      lines.push(`  stream ${s.id}:`);
      const rtt = transferRttSeconds([s]);
      for (const l of [endLine('send', s.send, rtt), endLine('receive', s.receive, rtt)]) if (l) lines.push(l);
    }
    if (streams.length > MAX_STREAM_LINES) lines.push(`  … ${streams.length - MAX_STREAM_LINES} more streams in the JSON result`);
  }
  const missing = r.unavailable ?? [];
  if (missing.length) {
    // The window's own reason is on the Window line already.
    const reasons = [...new Set(missing.filter((u) => u.field !== 'window').map((u) => `${u.side}: ${u.reason}`))];
    lines.push('', `Not measured (${missing.length} figures): ${reasons.join('; ')}`);
  }
  return lines;
}
