/**
 * One UDP stream's sender on Node's dgram socket: datagrams of `datagramBytes` carrying
 * Longhaul's header (datagram.ts), paced at `bitsPerSec` (udp-pacer.ts), until its deadline or
 * its stop. Backpressure: no more than MAX_QUEUED_BYTES wait in the socket's send queue; past
 * that the sender waits for it to drain and its pacer writes the lag off as the PC's shortfall.
 */
import dgram from 'node:dgram';
import { isIPv6 } from 'node:net';
import { LONGHAUL_HEADER_BYTES, readLonghaulHeader, wallClock, writeIperf3Header, writeLonghaulHeader } from './datagram.js';
import { iperf3Dial, iperf3Join, iperf3StreamSocket } from './iperf3-connect.js';
import { UdpPacer } from './udp-pacer.js';

/** iperf3's header with 64-bit counters: the least an iperf3 datagram holds. */
const IPERF3_MAX_HEADER_BYTES = 16;
/** The most the socket's send queue may hold before the sender waits, bytes. */
const MAX_QUEUED_BYTES = 256 * 1024;
/** Datagrams sent per event-loop turn at most, so timers (samples, the deadline) still run. */
const MAX_PER_TURN = 256;

interface UdpSenderOptions {
  host: string;
  port: number;
  streamId: number;
  /** The run cookie's first 8 bytes (datagram.ts). */
  tag: Buffer;
  datagramBytes: number;
  bitsPerSec: number;
  /** Stop after handing out this many payload bytes (whole datagrams), or null for a deadline or a stop. */
  budgetBytes?: number | null;
  now?: () => bigint;
  /**
   * iperf3's datagrams instead of Longhaul's (an iperf3 peer): its 12-byte header (16 with
   * --udp-counters-64bit) stamped with this PC's wall clock; `sharePort`: the server's socket,
   * bound beside its listener (iperf3-connect.ts).
   */
  iperf3?: { counters64: boolean; sharePort: boolean };
}

interface UdpSenderCounts {
  datagrams: number;
  bytes: number;
  /** Bytes the pacing schedule asked for that this PC did not send in time (written off). */
  shortBytes: number;
  /** Datagrams the OS refused (send errors: ENOBUFS, ECONNREFUSED from an ICMP), not counted as sent. */
  sendErrors: number;
  lastError: string | null;
}

export class UdpSender {
  private readonly socket: dgram.Socket;
  private readonly now: () => bigint;
  private readonly payload: Buffer;
  private pacer: UdpPacer | null = null;
  private timer: NodeJS.Timeout | null = null;
  private seq = 0;
  private stopped = false;
  private deadlineNs: bigint | null = null;
  /** The wall clock iperf3's header carries (its receiver takes only differences, as ours). */
  private readonly wallNs: () => bigint;
  /** When the first and the last datagram were handed out (ns on `now`'s clock; 0n: not yet). */
  firstNs = 0n;
  lastNs = 0n;
  private finishedResolve: (() => void) | null = null;
  readonly finished: Promise<void>;
  readonly counts: UdpSenderCounts = { datagrams: 0, bytes: 0, shortBytes: 0, sendErrors: 0, lastError: null };

  constructor(private readonly opts: UdpSenderOptions) {
    const header = opts.iperf3 ? IPERF3_MAX_HEADER_BYTES : LONGHAUL_HEADER_BYTES;
    if (opts.datagramBytes < header) throw new RangeError(`a datagram needs at least ${header} bytes for its header`);
    this.socket = opts.iperf3 ? iperf3StreamSocket(opts.host, opts.iperf3.sharePort) : dgram.createSocket(isIPv6(opts.host) ? 'udp6' : 'udp4');
    this.now = opts.now ?? (() => process.hrtime.bigint());
    this.wallNs = wallClock(this.now);
    this.payload = Buffer.alloc(opts.datagramBytes, 0x5a);
    this.finished = new Promise((resolve) => (this.finishedResolve = resolve));
    this.socket.on('error', (err) => this.fail(err));
  }

  /** Connect (UDP: fix the peer's address; nothing is sent). */
  async connect(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.connect(this.opts.port, this.opts.host, () => {
        this.socket.off('error', reject);
        resolve();
      });
    });
  }

  /** Start sending, until `deadlineNs` (on `now`'s clock; null: a stop or the budget only). */
  begin(deadlineNs: bigint | null): void {
    if (this.stopped || this.pacer) return;
    this.deadlineNs = deadlineNs;
    this.firstNs = this.now();
    this.pacer = new UdpPacer(this.opts.bitsPerSec / 8, this.opts.datagramBytes, this.firstNs);
    this.turn();
  }

  /**
   * The other way round, for a run whose receiver is behind a NAT or firewall (iperf3's UDP
   * "connect"): bind on `host`, port 0, and return the port; `peer` settles once the receiver's
   * hello (a header with sequence number 0, this run's tag and this stream's id) arrived, and
   * the socket is then connected to where it came from. Other datagrams are dropped.
   */
  async serve(host: string): Promise<{ port: number; peer: Promise<void> }> {
    await new Promise<void>((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.bind(0, host, () => {
        this.socket.off('error', reject);
        resolve();
      });
    });
    const peer = new Promise<void>((resolve, reject) => {
      const onHello = (msg: Buffer, from: dgram.RemoteInfo): void => {
        const d = readLonghaulHeader(msg, this.opts.tag);
        if (!d || d.seq !== 0 || d.streamId !== this.opts.streamId) return;
        this.socket.off('message', onHello);
        this.socket.connect(from.port, from.address, () => resolve());
      };
      this.socket.on('message', onHello);
      this.finished.then(() => reject(new Error('stopped before the receiver said hello')), reject);
    });
    peer.catch(() => undefined); // the caller may never ask (a stop during setup)
    return { port: this.socket.address().port, peer };
  }

  /** An iperf3 client's stream: connect to the server's port and make iperf3's UDP handshake (iperf3-connect.ts). */
  dialIperf3(timeoutMs: number): Promise<void> {
    return iperf3Dial(this.socket, this.opts.host, this.opts.port, timeoutMs);
  }

  /** An iperf3 server's stream: bind beside the listener on host:port, connect to the client's `peer`, reply. */
  joinIperf3(host: string, port: number, peer: { address: string; port: number }): Promise<void> {
    return iperf3Join(this.socket, host, port, peer);
  }

  /** Connect and start at once (a test, or a sender with nothing to wait for). */
  async start(deadlineNs: bigint | null): Promise<void> {
    await this.connect();
    this.begin(deadlineNs);
  }

  /** Stop sending; `finished` settles once the socket's queue went out and it closed. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pacer) this.counts.shortBytes = Math.round(this.pacer.shortBytes);
    // Datagrams still in the send queue go out before the socket closes (bounded: 20 × 5 ms).
    let waits = 0;
    const close = (): void => {
      if (this.socket.getSendQueueCount() > 0 && waits++ < 20) return void setTimeout(close, 5);
      this.socket.close(() => this.finishedResolve?.());
    };
    close();
  }

  /** The highest sequence number handed out (the receiver's tail loss is counted up to it). */
  get lastSeq(): number {
    return this.seq;
  }

  private turn(): void {
    this.timer = null;
    const pacer = this.pacer;
    if (this.stopped || !pacer) return;
    const now = this.now();
    if (this.deadlineNs !== null && now >= this.deadlineNs) {
      pacer.finish(this.deadlineNs);
      return this.stop();
    }
    const budget = this.opts.budgetBytes ?? null;
    let n = Math.min(pacer.due(now), MAX_PER_TURN);
    while (n > 0 && this.socket.getSendQueueSize() < MAX_QUEUED_BYTES) {
      if (budget !== null && this.seq * this.opts.datagramBytes >= budget) return this.stop();
      this.sendOne(now);
      pacer.sent(1);
      n--;
    }
    this.timer = setTimeout(() => this.turn(), n > 0 ? 1 : pacer.waitMs());
  }

  private sendOne(now: bigint): void {
    this.seq++;
    // One buffer per datagram: the header differs and the send is asynchronous.
    const buf = Buffer.from(this.payload);
    if (this.opts.iperf3) writeIperf3Header(buf, this.seq, this.wallNs(), this.opts.iperf3.counters64);
    else writeLonghaulHeader(buf, { streamId: this.opts.streamId, seq: this.seq, sentNs: now }, this.opts.tag);
    this.lastNs = now;
    const size = buf.length;
    this.socket.send(buf, (err) => {
      if (err) {
        this.counts.sendErrors++;
        this.counts.lastError = (err as NodeJS.ErrnoException).code ?? err.message;
        return;
      }
      this.counts.datagrams++;
      this.counts.bytes += size;
    });
  }

  private fail(err: Error): void {
    this.counts.lastError = (err as NodeJS.ErrnoException).code ?? err.message;
    this.stop();
  }
}
