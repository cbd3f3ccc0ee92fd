/**
 * A UDP test's receiving socket on Node's dgram: one port for all the run's streams, each
 * datagram checked (Longhaul's header and the run's cookie tag: datagram.ts) and counted on its
 * stream (receive-stats.ts). A datagram that is not this run's is counted as `strangers` and
 * dropped, never parsed further.
 */
import dgram from 'node:dgram';
import { isIPv6 } from 'node:net';
import type { UdpCounts } from '../../../contract/udp.js';
import { LONGHAUL_HEADER_BYTES, readIperf3Header, readLonghaulHeader, writeLonghaulHeader } from './datagram.js';
import { iperf3Dial, iperf3Join, iperf3StreamSocket } from './iperf3-connect.js';
import { UdpReceiveStats } from './receive-stats.js';

/** A hello is repeated this often until its stream's first datagram arrives (one may be lost), ms. */
const HELLO_EVERY_MS = 100;
/** ...and at most this many times (15 s: the control channel's wait for the streams). */
const MAX_HELLOS = 150;

interface UdpReceiverOptions {
  /** The run cookie's first 8 bytes. */
  tag: Buffer;
  /** The streams this run announced: datagrams for any other id are strangers. */
  streamIds: readonly number[];
  /** Address to bind (default 127.0.0.1; '0.0.0.0' for a real peer). */
  host?: string;
  /** SO_RCVBUF to ask for, bytes (-w for UDP); null: the OS's. */
  receiveBufferBytes?: number | null;
  now?: () => bigint;
}

export class UdpReceiver {
  private readonly socket: dgram.Socket;
  private readonly now: () => bigint;
  private readonly stats = new Map<number, UdpReceiveStats>();
  /** Datagrams that were not this run's (no header, another cookie, an unknown stream). */
  strangers = 0;
  /** Arrival of the first and the last counted datagram, ns (0n: none yet). */
  firstNs = 0n;
  lastNs = 0n;
  private helloTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** An iperf3 peer's streams: one connected socket each, since iperf3's header names no stream. */
  private readonly iperf3Sockets: dgram.Socket[] = [];

  constructor(private readonly opts: UdpReceiverOptions) {
    this.socket = dgram.createSocket(isIPv6(opts.host ?? '') ? 'udp6' : 'udp4');
    this.now = opts.now ?? (() => process.hrtime.bigint());
    for (const id of opts.streamIds) this.stats.set(id, new UdpReceiveStats());
    this.socket.on('message', (msg) => this.onDatagram(msg));
    this.socket.on('error', () => undefined); // a receive error is not the run's end; the counts say what arrived
  }

  /** Bind to port 0 (or `port`) and return the port the OS gave. */
  async listen(port = 0): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.socket.once('error', reject);
      this.socket.bind(port, this.opts.host ?? '127.0.0.1', () => {
        this.socket.off('error', reject);
        resolve();
      });
    });
    if (this.opts.receiveBufferBytes) this.socket.setRecvBufferSize(this.opts.receiveBufferBytes);
    return this.socket.address().port;
  }

  /** SO_RCVBUF as the OS reports it, bytes (Linux: twice what was asked). */
  receiveBufferBytes(): number {
    return this.socket.getRecvBufferSize();
  }

  /** Stream `id`'s counts so far (cumulative), or null for a stream this run does not have. */
  counts(id: number): UdpCounts | null {
    return this.stats.get(id)?.counts() ?? null;
  }

  /** Stream `id`'s final counts, its sender having said the highest sequence number it sent. */
  final(id: number, lastSeq: number | null): UdpCounts | null {
    return this.stats.get(id)?.final(lastSeq) ?? null;
  }

  /**
   * Say hello to each stream's sender ([stream id, port] on `host`) from this socket, so it learns
   * where to send (udp-sender.ts `serve`: through a NAT, as iperf3's UDP connect), again every
   * HELLO_EVERY_MS until that stream's first datagram arrived, at most MAX_HELLOS times.
   */
  hello(host: string, peers: readonly [number, number][]): void {
    let sent = 0;
    const tick = (): void => {
      this.helloTimer = null;
      const waiting = peers.filter(([id]) => (this.stats.get(id)?.counts().datagrams ?? 0) === 0);
      if (this.closed || waiting.length === 0 || sent++ >= MAX_HELLOS) return;
      for (const [id, port] of waiting) {
        const buf = Buffer.alloc(LONGHAUL_HEADER_BYTES);
        writeLonghaulHeader(buf, { streamId: id, seq: 0, sentNs: this.now() }, this.opts.tag);
        this.socket.send(buf, port, host, () => undefined); // a lost or refused hello is sent again
      }
      this.helloTimer = setTimeout(tick, HELLO_EVERY_MS);
    };
    tick();
  }

  /** An iperf3 server's stream `id` (we are its client): a socket of its own, connected with iperf3's UDP handshake. */
  async dialIperf3(id: number, host: string, port: number, counters64: boolean, timeoutMs: number): Promise<void> {
    await iperf3Dial(this.iperf3Socket(id, host, false, counters64), host, port, timeoutMs);
  }

  /** An iperf3 client's stream `id` (we serve it): bound beside the listener on host:port, connected to `peer`. */
  async joinIperf3(id: number, host: string, port: number, peer: { address: string; port: number }, counters64: boolean): Promise<void> {
    await iperf3Join(this.iperf3Socket(id, host, true, counters64), host, port, peer);
  }

  private iperf3Socket(id: number, host: string, sharePort: boolean, counters64: boolean): dgram.Socket {
    const socket = iperf3StreamSocket(host, sharePort);
    this.iperf3Sockets.push(socket);
    socket.on('message', (msg) => this.onIperf3Datagram(id, msg, counters64));
    socket.on('listening', () => {
      if (this.opts.receiveBufferBytes) socket.setRecvBufferSize(this.opts.receiveBufferBytes);
    });
    socket.on('error', () => undefined); // as the main socket's: the counts say what arrived
    return socket;
  }

  close(): Promise<void> {
    this.closed = true;
    if (this.helloTimer) clearTimeout(this.helloTimer);
    const all = [this.socket, ...this.iperf3Sockets];
    return Promise.all(all.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))).then(() => undefined);
  }

  /** A datagram on stream `id`'s own socket: iperf3's header, or a stranger (a repeated connect message is one). */
  private onIperf3Datagram(id: number, msg: Buffer, counters64: boolean): void {
    const d = msg.length > 4 ? readIperf3Header(msg, counters64) : null;
    const stream = this.stats.get(id);
    if (!d || !stream) {
      this.strangers++;
      return;
    }
    this.count(stream, d.seq, d.sentNs, msg.length);
  }

  private onDatagram(msg: Buffer): void {
    const d = readLonghaulHeader(msg, this.opts.tag);
    const stream = d ? this.stats.get(d.streamId) : undefined;
    if (!d || !stream) {
      this.strangers++;
      return;
    }
    this.count(stream, d.seq, d.sentNs, msg.length);
  }

  private count(stream: UdpReceiveStats, seq: number, sentNs: bigint, size: number): void {
    const now = this.now();
    if (this.firstNs === 0n) this.firstNs = now;
    this.lastNs = now;
    stream.add(seq, sentNs, now, size);
  }
}
