/**
 * One TCP_INFO snapshot as the result contract's TcpSample: what each OS's counters mean for
 * the diagnosis, decided here in plain TypeScript so that it is unit-tested on every OS
 * (native/src/tcp_info_*.cc only report what the OS counts, under normalised names).
 *
 * Windows (SIO_TCP_INFO v1) counts time in the three RFC 4898 send-limit states, which
 * together cover the connection's whole life, idle time included:
 *
 *   Receiver Limited (Rwin) ─┐ data in flight, held back by the network side: busy
 *   Congestion Limited (Cwnd) ┘
 *   Sender Limited (Snd) ──── the sender had nothing to send: NOT busy
 *
 * So busy = Rwin + Cwnd, and Snd time is `senderLimitedUs`. Counting Snd as busy (as Longhaul
 * once did) made every Windows sender look busy all the time. The timers stay cumulative since
 * the handshake: the analysis takes differences between readings inside the transfer.
 */
import type { TcpSample } from '../contract/result.js';
import type { NativeTcpInfo } from './native-api.js';

/** The OS families whose counters need a mapping, by the addon's `source` name. */
type TcpInfoFamily = 'linux' | 'windows' | 'macos' | 'other';

/** `linux-tcp_info` → 'linux', `windows-sio_tcp_info_v1` → 'windows', … */
export function tcpInfoFamily(source: string): TcpInfoFamily {
  if (source.startsWith('linux-')) return 'linux';
  if (source.startsWith('windows-')) return 'windows';
  if (source.startsWith('macos-')) return 'macos';
  return 'other';
}

type SendLimits = Pick<TcpSample, 'busyUs' | 'rwndLimitedUs' | 'sndbufLimitedUs' | 'cwndLimitedUs' | 'senderLimitedUs'>;

/**
 * The send-limit timers. Linux: busy time and, of it, the receive-window and send-buffer shares as the
 * kernel counts them (no congestion-limited or sender-limited timer). Windows: RFC 4898 states (see the
 * file's comment); v0 has no timers, so all are null; the send buffer is not told apart from the application.
 */
export function sendLimits(info: NativeTcpInfo): SendLimits {
  if (tcpInfoFamily(info.source) === 'windows') {
    const rwnd = info.rwndLimitedUs;
    const cwnd = info.cwndLimitedUs;
    return {
      busyUs: rwnd !== null && cwnd !== null ? rwnd + cwnd : null,
      rwndLimitedUs: rwnd,
      sndbufLimitedUs: null,
      cwndLimitedUs: cwnd,
      senderLimitedUs: info.senderLimitedUs,
    };
  }
  return {
    busyUs: info.busyUs,
    rwndLimitedUs: info.rwndLimitedUs,
    sndbufLimitedUs: info.sndbufLimitedUs,
    cwndLimitedUs: info.cwndLimitedUs,
    senderLimitedUs: info.senderLimitedUs,
  };
}

type Retransmits = Pick<TcpSample, 'totalRetransSegments' | 'retransSource' | 'bytesRetrans'>;

/**
 * Retransmitted segments: counted where the OS counts them (Linux, macOS); where it counts only bytes
 * (Windows: BytesRetrans; its FastRetrans and TimeoutEpisodes count episodes, not segments), bytes ÷ MSS
 * labelled 'estimated'; null when neither is known, never 0.
 */
export function retransmits(info: NativeTcpInfo): Retransmits {
  const bytesRetrans = info.retransmitBytes;
  if (info.totalRetransSegments !== null) return { totalRetransSegments: info.totalRetransSegments, retransSource: 'counted', bytesRetrans };
  const mss = info.sndMssBytes;
  if (bytesRetrans !== null && mss !== null && mss > 0) {
    return { totalRetransSegments: Math.round(bytesRetrans / mss), retransSource: 'estimated', bytesRetrans };
  }
  return { totalRetransSegments: null, bytesRetrans };
}

/** The TcpSample of one snapshot. */
export function sampleFrom(info: NativeTcpInfo, index: number, t: number): TcpSample {
  const linux = tcpInfoFamily(info.source) === 'linux';
  const { totalRetransSegments, retransSource, bytesRetrans } = retransmits(info);
  return {
    index,
    t,
    rttUs: info.rttUs,
    rttVarUs: info.rttVarUs,
    minRttUs: info.minRttUs,
    sndCwndSegments: info.sndCwndSegments,
    sndCwndBytes: info.sndCwndBytes,
    totalRetransSegments,
    sndWndBytes: info.sndWndBytes,
    rcvSpaceBytes: info.rcvSpaceBytes,
    deliveryRateBitsPerSecond: info.deliveryRateBytesPerSec === null ? null : info.deliveryRateBytesPerSec * 8,
    ...sendLimits(info),
    unackedSegments: info.unackedSegments,
    notSentBytes: info.notSentBytes,
    ...(retransSource ? { retransSource } : {}),
    bytesRetrans,
    lostSegments: info.lostSegments,
    // macOS reports ssthresh in bytes; only Linux's is in segments.
    ssthreshSegments: linux ? info.sndSsthresh : null,
    dsackDups: info.dsackDups,
    reordSeen: info.reordSeen,
    pacingRateBitsPerSecond: info.pacingRateBytesPerSec === null ? null : info.pacingRateBytesPerSec * 8,
    appLimited: info.deliveryRateAppLimited,
    dataSegsIn: info.dataSegsIn,
    rcvMssBytes: info.rcvMssBytes,
  };
}

/** The fields of a TcpSample every OS reader should give, in the order they are checked for absence. */
const TCP_SAMPLE_FIELDS = [
  'rttUs',
  'rttVarUs',
  'minRttUs',
  'sndCwndSegments',
  'sndCwndBytes',
  'totalRetransSegments',
  'sndWndBytes',
  'rcvSpaceBytes',
  'deliveryRateBitsPerSecond',
  'busyUs',
  'rwndLimitedUs',
  'sndbufLimitedUs',
  'unackedSegments',
  'notSentBytes',
] as const;

/**
 * Fields only one OS family counts, checked for absence only there: a Linux kernel older than the
 * field, or Windows v0 (before 1709) without the send-limit timers. Elsewhere their null is the OS's
 * design, not a failed reading. (An unpaced socket has no pacing rate: not checked.)
 */
const FAMILY_FIELDS: Record<TcpInfoFamily, readonly (keyof TcpSample)[]> = {
  linux: ['bytesRetrans', 'lostSegments', 'ssthreshSegments', 'dsackDups', 'reordSeen', 'appLimited'],
  windows: ['cwndLimitedUs', 'senderLimitedUs', 'bytesRetrans'],
  macos: [],
  other: [],
};

/** The TcpSample fields `info`'s OS should have given and did not. */
export function missingSampleFields(info: NativeTcpInfo): string[] {
  const s = sampleFrom(info, 0, 0);
  const fields: readonly (keyof TcpSample)[] = [...TCP_SAMPLE_FIELDS, ...FAMILY_FIELDS[tcpInfoFamily(info.source)]];
  return fields.filter((f) => s[f] === null || s[f] === undefined);
}
