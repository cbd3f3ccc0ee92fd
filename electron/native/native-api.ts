/**
 * The typed surface of the socket addon (native/). Numbers are plain JS
 * numbers; a field the OS does not report is `null`, never a guess.
 */

/** One normalised TCP info snapshot (Linux tcp_info, Windows SIO_TCP_INFO, macOS TCP_CONNECTION_INFO). */
export interface NativeTcpInfo {
  /** Which OS interface answered, e.g. `linux-tcp_info`. */
  source: string;
  /** How many bytes of the OS structure the kernel filled in. */
  rawBytes: number;
  state: number | null;
  rttUs: number | null;
  rttVarUs: number | null;
  minRttUs: number | null;
  sndCwndSegments: number | null;
  sndCwndBytes: number | null;
  sndSsthresh: number | null;
  sndMssBytes: number | null;
  rcvMssBytes: number | null;
  advMssBytes: number | null;
  pmtuBytes: number | null;
  totalRetransSegments: number | null;
  retransmitBytes: number | null;
  lostSegments: number | null;
  unackedSegments: number | null;
  bytesInFlight: number | null;
  sndWndBytes: number | null;
  rcvWndBytes: number | null;
  rcvSpaceBytes: number | null;
  rcvSsthreshBytes: number | null;
  sndWscale: number | null;
  rcvWscale: number | null;
  wscaleNegotiated: boolean | null;
  deliveryRateBytesPerSec: number | null;
  deliveryRateAppLimited: boolean | null;
  busyUs: number | null;
  rwndLimitedUs: number | null;
  sndbufLimitedUs: number | null;
  cwndLimitedUs: number | null;
  bytesSent: number | null;
  bytesAcked: number | null;
  bytesReceived: number | null;
  notSentBytes: number | null;
  /** RFC 4898 sender-limited time as Windows counts it (SndLimTimeSnd), µs; null elsewhere and in builds before it. */
  senderLimitedUs: number | null;
  /** Linux tcpi_dsack_dups / tcpi_reord_seen (kernel 4.19 on). */
  dsackDups: number | null;
  reordSeen: number | null;
  /** Linux tcpi_pacing_rate; null where the socket is not paced or the kernel does not say. */
  pacingRateBytesPerSec: number | null;
  /**
   * Linux tcpi_data_segs_in: data segments received, counted on arrival (retransmitted and out-of-order ones
   * too, GRO-merged ones one by one), so it grows while a hole waits for its retransmission. Null elsewhere.
   */
  dataSegsIn: number | null;
}

/** Effective socket buffer sizes as getsockopt reports them (Linux: twice what was set). */
export interface NativeBuffers {
  sndBufBytes: number | null;
  rcvBufBytes: number | null;
  /** Pinned sizes (autotuning off): Linux SO_BUF_LOCK, null elsewhere. */
  sndLocked: boolean | null;
  rcvLocked: boolean | null;
}

interface CreateSocketOptions {
  family: 4 | 6;
  /** 0 or absent: leave the OS default. */
  sndBufBytes?: number;
  rcvBufBytes?: number;
  /** Default true. */
  noDelay?: boolean;
  /** TCP_MAXSEG where the OS allows it; a refusal is a warning, not an error. */
  maxSegBytes?: number;
}

/** Options of one native byte loop (native/src/stream_pump.cc). */
export interface PumpOptions {
  role: 'send' | 'receive';
  /** send: the write size; receive: the read size. Bytes. */
  bufferBytes: number;
  /** Stop after exactly this many bytes (receive: the last read asks only for what is left); absent: no budget. */
  budgetBytes?: number;
  /** send: stop at this process.hrtime.bigint() value; absent: no deadline. */
  deadlineNs?: bigint;
  /**
   * receive: let the kernel wake the reader once per ~250 µs of data at the measured rate
   * (SO_RCVLOWAT, at most one read buffer and 1/16 of SO_RCVBUF) instead of once per segment.
   */
  batchReads?: boolean;
  /** send: pace this stream at this many payload bytes per second with the loop's own token bucket (where the kernel cannot: --bitrate off Linux); absent: unpaced. */
  pacingBytesPerSec?: number;
  /** send: `-Z`: sendfile(2) from a memory file holding the payload pattern instead of send(), where the OS allows (Linux); snapshot() says which. */
  zeroCopy?: boolean;
}

/** Why a native byte loop ended. */
export type PumpEndReason = 'eof' | 'budget' | 'deadline' | 'stopped' | 'error';

/** A native byte loop on its own thread, over its own dup() of the socket. */
export interface NativePump {
  /**
   * [bytes, completions, firstNs, lastNs (0n = none yet), running]; times on process.hrtime.bigint()'s clock.
   * Builds with thread CPU add [thread, threadCpuStartNs, threadCpuEndNs]: which loop thread of this
   * process served the stream (0 = none yet) and that thread's CPU time when it took the stream on
   * and when the stream ended (-1 = unknown, or not yet); then [threadWaitStartNs, threadWaitEndNs], the
   * thread's run-queue wait at the same moments (Linux; -1 elsewhere, absent from older builds); then
   * [sendPath, copyReason]: a sender's call ('copy' | 'sendfile'; '' for a receiver or before its thread took
   * it on) and why -Z was not honoured (null: it was, or not asked); absent from older builds.
   */
  snapshot(): [number, number, bigint, bigint, boolean, number?, number?, number?, number?, number?, string?, (string | null)?];
  /** Ask the loop to end; it does within 50 ms and then calls onDone with 'stopped' (unless something ended it first). */
  stop(): void;
}

/** Options of a UDP stream's native sender (native/src/udp_send.cc): Longhaul's datagrams, paced as udp-pacer.ts paces. */
export interface UdpSendOptions {
  datagramBytes: number;
  bytesPerSec: number;
  streamId: number;
  /** The run cookie's first 8 bytes (datagram.ts). */
  tag: Buffer;
  /** Stop at this process.hrtime.bigint() value; absent: a stop or the budget only. */
  deadlineNs?: bigint;
  /** Stop after this many payload bytes (whole datagrams); absent: none. */
  budgetBytes?: number;
}

/** Why a native UDP sender ended. */
export type UdpSendEndReason = 'budget' | 'deadline' | 'stopped' | 'error';

/** A UDP stream's sender on its own thread, over its own dup() of the connected socket. */
export interface NativeUdpSend {
  /**
   * [datagrams, bytes, shortBytes, sendErrors, lastSeq, firstNs, lastNs (process.hrtime's clock), running,
   *  threadCpuStartNs, threadCpuEndNs (-1: unknown or not yet), lastSendErrno (0: none; read once it ended)].
   */
  snapshot(): [number, number, number, number, number, bigint, bigint, boolean, number, number, number];
  /** Ask the loop to end; it does within 50 ms and then calls onDone with 'stopped' (unless something ended it first). */
  stop(): void;
}

/**
 * native/src/relay_pump.cc: one direction of the link emulator's relay on its own thread, over
 * dup()s of two connected sockets (POSIX). Offsets count bytes since the relay started.
 * `state` bits: 1 the source's FIN was read, 2 our FIN was sent, 4 the thread ended (last call).
 */
export interface NativeRelay {
  setReadLimit(offset: number): void;
  release(offset: number): void;
  finish(): void;
  stop(): void;
}

export type RelayNotify = (err: NodeJS.ErrnoException | null, readBytes: number, writtenBytes: number, state: number, behindMs: number) => void;

/** What native/src/addon.cc exports. OS failures throw an Error with `errno` and `syscall`. */
export interface NativeBinding {
  readonly tcpInfoSource: string;
  /** The Wine version when a Windows build runs under Wine, else '' (absent in older builds). */
  readonly wineVersion?: string;
  /** Field names in the order `tcpInfoInto` writes them. */
  readonly tcpInfoFields: readonly string[];
  /** One getsockopt into `out` (NaN = not reported); returns how many bytes the OS filled. No allocation. */
  tcpInfoInto(fd: number, out: Float64Array): number;
  createTcpSocket(opts: CreateSocketOptions): { fd: number; warnings: string };
  setBuffers(fd: number, sndBufBytes: number, rcvBufBytes: number): void;
  getBuffers(fd: number): NativeBuffers;
  setBufferLocks(fd: number, sndLocked: boolean, rcvLocked: boolean): void;
  closeFd(fd: number): void;
  /** Whether this build has the byte loop (every OS since the Winsock loop). Absent in builds older than the loop. */
  readonly pumpSupported?: boolean;
  readonly Pump?: new (fd: number, opts: PumpOptions, onDone: (err: NodeJS.ErrnoException | null, reason: PumpEndReason) => void) => NativePump;
  /** native/src/udp_send.cc: true on POSIX builds that have it (false on Windows; absent in older builds). */
  readonly udpSendSupported?: boolean;
  readonly UdpSend?: new (fd: number, opts: UdpSendOptions, onDone: (err: NodeJS.ErrnoException | null, reason: UdpSendEndReason) => void) => NativeUdpSend;
  /** native/src/window_clamp.cc (absent in builds before it): true where TCP_WINDOW_CLAMP exists (Linux). */
  readonly windowClampSupported?: boolean;
  setWindowClamp?(fd: number, bytes: number): void;
  getWindowClamp?(fd: number): number;
  setBuffersForce?(fd: number, sndBufBytes: number, rcvBufBytes: number): void;
  /** True where TCP_NOTSENT_LOWAT exists (Linux, macOS); absent in older builds. */
  readonly notSentLowatSupported?: boolean;
  setNotSentLowat?(fd: number, bytes: number): void;
  /** TCP_MAXSEG (absent in builds before it); setMaxSeg throws with the OS's error where refused. */
  setMaxSeg?(fd: number, bytes: number): void;
  getMaxSeg?(fd: number): number;
  /** native/src/owned_conn.cc (absent in builds before it): data connections the addon owns end to end. */
  connectStream?(fd: number, o: { address: string; port: number; timeoutMs: number; header: Buffer }, cb: (err: NodeJS.ErrnoException | null) => void): void;
  bindListen?(fd: number, address: string, port: number, backlog: number): number;
  acceptStream?(fd: number, timeoutMs: number, cb: (err: NodeJS.ErrnoException | null, c: { fd: number; address: string; port: number } | null) => void): void;
  readExact?(fd: number, bytes: number, timeoutMs: number, cb: (err: NodeJS.ErrnoException | null, b: Buffer | null) => void): void;
  shutdownSend?(fd: number): void;
  duplicateSocket?(fd: number, pid: number): Buffer;
  socketFromDuplicate?(info: Buffer): number;
  /** native/src/congestion.cc (absent in builds before it): true where a socket's congestion control can be read (Linux TCP_CONGESTION). */
  readonly congestionControlSupported?: boolean;
  getCongestion?(fd: number): string;
  setCongestion?(fd: number, name: string): void;
  /** native/src/pacing_rate.cc (absent in builds before it): true where the kernel paces a socket (Linux SO_MAX_PACING_RATE). */
  readonly maxPacingRateSupported?: boolean;
  setMaxPacingRate?(fd: number, bytesPerSec: number): void;
  getMaxPacingRate?(fd: number): number;
  /** POSIX builds with the relay thread (absent on Windows and in older builds). */
  readonly Relay?: new (srcFd: number, dstFd: number, notify: RelayNotify) => NativeRelay;
}

/**
 * Data connections the addon owns from the SYN to the close (native/src/owned_conn.cc): where
 * Node can neither expose nor adopt a socket (Windows), this is how the window is set before
 * the handshake on both ends. Every wait is bounded by the caller's timeout.
 */
export interface NativeOwnedConn {
  /** Connect a socket made by createTcpSocket to an IP literal and write `header`; rejects on refusal, timeout or reset. */
  connect(fd: number, address: string, port: number, header: Buffer, timeoutMs: number): Promise<void>;
  /** bind() and listen() a socket made by createTcpSocket; returns the bound port. */
  bindListen(fd: number, address: string, port: number, backlog: number): number;
  /** One accepted connection (non-blocking), or null when none arrived within `timeoutMs`. */
  accept(fd: number, timeoutMs: number): Promise<{ fd: number; address: string; port: number } | null>;
  /** Exactly `bytes` bytes (never more) within `timeoutMs`. */
  readExact(fd: number, bytes: number, timeoutMs: number): Promise<Buffer>;
  /** Send our FIN after the last byte. */
  shutdownSend(fd: number): void;
  /** Windows: the socket for process `pid` (WSADuplicateSocketW), to open there with fromDuplicate. Throws elsewhere. */
  duplicate(fd: number, pid: number): Buffer;
  /** Windows: open a socket duplicated for this process. */
  fromDuplicate(info: Buffer): number;
}

/**
 * The advertised-window controls of Linux: TCP_WINDOW_CLAMP, and SO_*BUFFORCE
 * (buffers above net.core.rmem_max / wmem_max, for a process with CAP_NET_ADMIN).
 */
interface NativeWindowClamp {
  set(fd: number, bytes: number): void;
  get(fd: number): number;
  /** Throws (EPERM) without CAP_NET_ADMIN; 0 leaves a size alone. */
  forceBuffers(fd: number, sndBufBytes: number, rcvBufBytes: number): void;
}

/** The addon as the rest of Longhaul uses it (load-native.ts wraps the binding). */
export interface NativeApi {
  /** `linux-tcp_info`, `windows-sio_tcp_info`, `macos-tcp_connection_info`, or '' when this OS has no reader. */
  readonly tcpInfoSource: string;
  /** The Wine version when this Windows process runs under Wine, else null: then Wine, not Windows, decides what TCP figures exist. */
  readonly wineVersion: string | null;
  /** A new, unconnected, non-blocking TCP socket with its options set (before any handshake). */
  createTcpSocket(opts: CreateSocketOptions): { fd: number; warnings: string };
  /** Set SO_SNDBUF / SO_RCVBUF; 0 leaves a size alone. */
  setBuffers(fd: number, sndBufBytes: number, rcvBufBytes: number): void;
  getBuffers(fd: number): NativeBuffers;
  /** Linux SO_BUF_LOCK: unlocking hands the sizes back to autotuning. Throws elsewhere. */
  setBufferLocks(fd: number, sndLocked: boolean, rcvLocked: boolean): void;
  /** Close a descriptor that was never handed to Node. */
  closeFd(fd: number): void;
  tcpInfo(fd: number): NativeTcpInfo;
  /** TCP_NOTSENT_LOWAT setter, null where the OS (or this build) has none. */
  readonly setNotSentLowat: ((fd: number, bytes: number) => void) | null;
  /** TCP_MAXSEG, null in builds without it. `set` throws the OS's refusal; `set(fd, 0)` gives the OS its own MSS back (Linux). */
  readonly maxSeg: { set(fd: number, bytes: number): void; get(fd: number): number } | null;
  /** Whether startPump works here. */
  readonly pumpSupported: boolean;
  /**
   * Start a byte loop on `fd` (a connected socket; the loop works on a dup of it), or null where
   * this build or OS has none. `onDone` runs on the JS thread once, after the loop has let go of the socket.
   */
  startPump(fd: number, opts: PumpOptions, onDone: (err: NodeJS.ErrnoException | null, reason: PumpEndReason) => void): NativePump | null;
  /** Whether startUdpSend works here. */
  readonly udpSendSupported: boolean;
  /** A UDP stream's native sender on `fd` (connected; the loop works on a dup), or null where this build or OS has none (Windows). */
  startUdpSend(fd: number, opts: UdpSendOptions, onDone: (err: NodeJS.ErrnoException | null, reason: UdpSendEndReason) => void): NativeUdpSend | null;
  /** null where the OS has no advertised-window clamp (not Linux) or the addon predates it. */
  readonly windowClamp: NativeWindowClamp | null;
  /** null in builds of the addon that predate owned connections. */
  readonly owned: NativeOwnedConn | null;
  /**
   * A socket's congestion control (Linux TCP_CONGESTION), or null where the OS has no per-socket
   * choice (Windows, macOS) or the addon predates it. `set` throws the OS's refusal (ENOENT: not in
   * this kernel; EPERM: not in net.ipv4.tcp_allowed_congestion_control and no CAP_NET_ADMIN).
   */
  readonly congestionControl: { get(fd: number): string; set(fd: number, name: string): void } | null;
  /**
   * The kernel's pacing cap of a socket (Linux SO_MAX_PACING_RATE, bytes per second), or null where
   * the OS has none (Windows, macOS) or the addon predates it. `set` throws the OS's refusal.
   */
  readonly maxPacingRate: { get(fd: number): number; set(fd: number, bytesPerSec: number): void } | null;
  /** The link emulator's native relay; null where this OS or build has none (Windows). */
  readonly startRelay: ((srcFd: number, dstFd: number, notify: RelayNotify) => NativeRelay) | null;
}
