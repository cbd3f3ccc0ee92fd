/**
 * One stream end's TCP_INFO readings as `longhaul.result/1` records them (part of result.ts, which
 * re-exports these types): what the kernel said, per interval tick, in the units the names carry.
 */

/**
 * One TCP_INFO reading of one stream end at one interval tick. Times in
 * microseconds, sizes in bytes, counts as named; null = not reported by this OS.
 */
export interface TcpSample {
  /** Interval index (as in `intervals[].index`) and seconds since start on this side's clock. */
  index: number;
  t: number;
  rttUs: number | null;
  rttVarUs: number | null;
  /** Sender: the lowest RTT the kernel has seen on this connection (Linux: windowed over minutes); absent in older results. */
  minRttUs?: number | null;
  /** Sender: congestion window (segments and bytes = segments × MSS). */
  sndCwndSegments: number | null;
  sndCwndBytes: number | null;
  /** Sender: segments retransmitted since the connection began. */
  totalRetransSegments: number | null;
  /** Sender: the peer's advertised receive window, after scaling. */
  sndWndBytes: number | null;
  /** Receiver: the receive-buffer space the kernel is tuning toward (rcv_space). */
  rcvSpaceBytes: number | null;
  /** Sender: the kernel's delivery-rate estimate, bits per second. */
  deliveryRateBitsPerSecond: number | null;
  /** Sender: cumulative time busy sending, and how much of it limited by the receive window / the send buffer. */
  busyUs: number | null;
  rwndLimitedUs: number | null;
  sndbufLimitedUs: number | null;
  unackedSegments: number | null;
  notSentBytes: number | null;
  /**
   * Sender: time the congestion window held it back, µs (Windows SIO_TCP_INFO `TimeCongestionLimited`, RFC 4898
   * `CongLimited`). Absent in older results; null where the OS does not count it (Linux keeps no such timer).
   */
  cwndLimitedUs?: number | null;
  /**
   * Sender: time the sending application left the socket empty, µs (Windows `TimeSenderLimited`, RFC 4898 `SndLimTimeSnd`:
   * sender-limited, NOT busy). Absent in older results; null where the OS does not count it.
   */
  senderLimitedUs?: number | null;
  /** Sender: bytes retransmitted since the connection began (Linux tcpi_bytes_retrans, Windows BytesRetrans). */
  bytesRetrans?: number | null;
  /**
   * How `totalRetransSegments` was obtained: 'counted' (the OS counts segments) or 'estimated' (bytes retransmitted ÷ MSS,
   * where the OS counts only bytes). Absent: counted, or none.
   */
  retransSource?: 'counted' | 'estimated';
  /** Sender: segments the kernel currently believes lost (Linux tcpi_lost). */
  lostSegments?: number | null;
  /** Sender: slow-start threshold, segments (Linux tcpi_snd_ssthresh; a huge value means "not yet set"). */
  ssthreshSegments?: number | null;
  /** Sender: duplicate SACKs received (Linux tcpi_dsack_dups) and reorderings seen (tcpi_reord_seen). */
  dsackDups?: number | null;
  reordSeen?: number | null;
  /** Sender: the kernel's pacing rate, bits per second (Linux tcpi_pacing_rate); null where not paced or not reported. */
  pacingRateBitsPerSecond?: number | null;
  /** Sender: whether the last delivery-rate sample was application-limited (Linux tcpi_delivery_rate_app_limited). */
  appLimited?: boolean | null;
  /**
   * Receiver: data segments received since the handshake, counted as they arrive (retransmitted and out-of-order
   * ones too; Linux tcpi_data_segs_in), and the MSS the receiver sees (tcpi_rcv_mss). Absent in older results;
   * null where the OS does not count them.
   */
  dataSegsIn?: number | null;
  rcvMssBytes?: number | null;
  /** A thinned result's reading standing for several ticks (see `detail`): how many, and the range of the gauges over them. */
  spread?: TcpSpread;
}

/** The readings one thinned TCP_INFO entry stands for: their count, and min/max of the gauges (null: none reported). */
export interface TcpSpread {
  readings: number;
  rttUs: { min: number; max: number } | null;
  sndCwndBytes: { min: number; max: number } | null;
  sndWndBytes: { min: number; max: number } | null;
}
