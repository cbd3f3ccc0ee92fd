/**
 * One UDP stream's sender: datagrams of `datagramBytes` carrying Longhaul's header (datagram.ts),
 * paced at `bitsPerSec` (udp-pacer.ts), until its deadline or its stop. Node's dgram socket sends
 * them, or, given the addon (`native`, native/data-path.ts udpSendIo), its own thread does
 * (native/src/udp_send.cc: the same header and pacing rule, sendmmsg batches) on a dup of this
 * socket, which Node keeps connected and closes. Backpressure: no more than MAX_QUEUED_BYTES wait
 * in Node's send queue (the native loop: the kernel's, waiting on POLLOUT); past that the sender
 * waits for it to drain and its pacer writes the lag off as the PC's shortfall.
 */
import dgram from 'node:dgram';
import { isIPv6 } from 'node:net';
import { LONGHAUL_HEADER_BYTES, readLonghaulHeader, wallClock, writeIperf3Header, writeLonghaulHeader } from './datagram.js';
import { iperf3Dial, iperf3Join, iperf3StreamSocket } from './iperf3-connect.js';
import { UdpPacer } from './udp-pacer.js';
import type { NativeApi, NativeUdpSend } from '../../../native/native-api.js';

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
  /** Send on the addon's own thread (Longhaul's header only; `now` must then be process.hrtime's clock); absent or null: Node's socket. */
  native?: NativeApi | null;
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
  private first = 0n;
  private last = 0n;
  private finishedResolve: (() => void) | null = null;
  readonly finished: Promise<void>;
  private readonly tally: UdpSenderCounts = { datagrams: 0, bytes: 0, shortBytes: 0, sendErrors: 0, lastError: null };
  /** The addon's loop once begun (native mode), and its last snapshot after it ended. */
  private loop: NativeUdpSend | null = null;
  private loopSeq = 0;
  /** True once the addon's loop took the stream on. */
  private usedNative = false;

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

  /** Which loop moves the datagrams: the addon's thread or Node's socket. */
  get io(): 'native' | 'node' {
    return this.usedNative ? 'native' : 'node';
  }

  /** What was sent so far (the native loop's counters, read now). */
  get counts(): UdpSenderCounts {
    this.refresh();
    return this.tally;
  }

  /** When the first and the last datagram were handed out (ns on `now`'s clock; 0n: not yet). */
  get firstNs(): bigint {
    this.refresh();
    return this.first;
  }
  get lastNs(): bigint {
    this.refresh();
    return this.last;
  }

  /** Start sending, until `deadlineNs` (on `now`'s clock; null: a stop or the budget only). */
  begin(deadlineNs: bigint | null): void {
    if (this.stopped || this.pacer || this.loop) return;
    this.deadlineNs = deadlineNs;
    if (this.opts.native && !this.opts.iperf3 && this.beginNative(deadlineNs)) return;
    this.first = this.now();
    this.pacer = new UdpPacer(this.opts.bitsPerSec / 8, this.opts.datagramBytes, this.first);
    this.turn();
  }

  /** The addon's loop on this socket; false (Node's loop instead) when it could not start. */
  private beginNative(deadlineNs: bigint | null): boolean {
    const fd = (this.socket as unknown as { _handle?: { fd?: number } })._handle?.fd;
    const api = this.opts.native;
    if (!api || fd === undefined || fd < 0) return false;
    const budget = this.opts.budgetBytes ?? null;
    try {
      this.loop = api.startUdpSend(
        fd,
        {
          datagramBytes: this.opts.datagramBytes,
          bytesPerSec: this.opts.bitsPerSec / 8,
          streamId: this.opts.streamId,
          tag: this.opts.tag,
          ...(deadlineNs !== null ? { deadlineNs } : {}),
          ...(budget !== null ? { budgetBytes: budget } : {}),
        },
        (err) => {
          this.refresh();
          if (err) this.tally.lastError = err.code ?? err.message;
          this.loop = null;
          this.closeSocket();
        },
      );
    } catch {
      this.loop = null;
    }
    this.usedNative = this.loop !== null;
    return this.usedNative;
  }

  /** Copy the native loop's counters (nothing in Node's mode: its counts are kept as it goes). */
  private refresh(): void {
    const loop = this.loop;
    if (!loop) return;
    const [datagrams, bytes, shortBytes, sendErrors, lastSeq, first, last, , , , errno] = loop.snapshot();
    Object.assign(this.tally, { datagrams, bytes, shortBytes: Math.round(shortBytes), sendErrors });
    if (errno) this.tally.lastError = `errno ${errno}`;
    this.loopSeq = lastSeq;
    this.first = first;
    this.last = last;
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
    if (this.pacer) this.tally.shortBytes = Math.round(this.pacer.shortBytes);
    // The native loop ends within 50 ms and then closes the socket (its onDone).
    if (this.loop) return this.loop.stop();
    this.closeSocket();
  }

  private closeSocket(): void {
    this.stopped = true;
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
    this.refresh();
    return this.usedNative ? this.loopSeq : this.seq;
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
    this.last = now;
    const size = buf.length;
    this.socket.send(buf, (err) => {
      if (err) {
        this.tally.sendErrors++;
        this.tally.lastError = (err as NodeJS.ErrnoException).code ?? err.message;
        return;
      }
      this.tally.datagrams++;
      this.tally.bytes += size;
    });
  }

  private fail(err: Error): void {
    this.tally.lastError = (err as NodeJS.ErrnoException).code ?? err.message;
    this.stop();
  }
}
