/**
 * A UDP test's receiving sockets on Node's dgram: one socket and port per stream, as iperf3's, so
 * what the OS dropped at each socket (its buffer full: util/udp-socket-drops.ts) is that stream's. Each
 * datagram is checked (Longhaul's header and the run's cookie tag: datagram.ts) and counted on its
 * stream (receive-stats.ts). A datagram that is not this run's, or not its socket's stream, is
 * counted as `strangers` and dropped, never parsed further.
 */
import dgram from 'node:dgram';
import { isIPv6 } from 'node:net';
import type { UdpCounts } from '../../../contract/udp.js';
import { LONGHAUL_HEADER_BYTES, readIperf3Header, readLonghaulHeader, writeLonghaulHeader } from './datagram.js';
import { iperf3Dial, iperf3Join, iperf3StreamSocket } from './iperf3-connect.js';
import { UdpReceiveStats } from './receive-stats.js';
import { udpSocketDrops } from '../../../util/udp-socket-drops.js';

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
  /** Each stream's socket: Longhaul's (listen), or an iperf3 peer's stream's (dialIperf3, joinIperf3). */
  private readonly sockets = new Map<number, dgram.Socket>();
  private readonly now: () => bigint;
  private readonly stats = new Map<number, UdpReceiveStats>();
  /** Datagrams that were not this run's (no header, another cookie, an unknown stream). */
  strangers = 0;
  /** Arrival of the first and the last counted datagram, ns (0n: none yet). */
  firstNs = 0n;
  lastNs = 0n;
  private helloTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly opts: UdpReceiverOptions) {
    this.now = opts.now ?? (() => process.hrtime.bigint());
    for (const id of opts.streamIds) this.stats.set(id, new UdpReceiveStats());
  }

  /** Bind each stream's socket to a port of its own (port 0: the OS picks) and return [stream id, port]. */
  async listen(): Promise<Map<number, number>> {
    const ports = new Map<number, number>();
    for (const id of this.opts.streamIds) {
      const socket = dgram.createSocket(isIPv6(this.opts.host ?? '') ? 'udp6' : 'udp4');
      this.sockets.set(id, socket);
      socket.on('message', (msg) => this.onDatagram(id, msg));
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind(0, this.opts.host ?? '127.0.0.1', () => {
          socket.off('error', reject);
          resolve();
        });
      });
      socket.on('error', () => undefined); // a receive error is not the run's end; the counts say what arrived
      if (this.opts.receiveBufferBytes) socket.setRecvBufferSize(this.opts.receiveBufferBytes);
      ports.set(id, socket.address().port);
    }
    return ports;
  }

  /** SO_RCVBUF of stream `id`'s socket (the first socket without `id`) as the OS reports it, bytes (Linux: twice what was asked); null before it is bound or after close(). */
  receiveBufferBytes(id?: number): number | null {
    const socket = id === undefined ? this.sockets.values().next().value : this.sockets.get(id);
    try {
      return socket ? socket.getRecvBufferSize() : null;
    } catch {
      return null; // closed
    }
  }

  /**
   * Datagrams the OS dropped at stream `id`'s socket, its receive buffer full (util/udp-socket-drops.ts): the
   * receiving PC's loss, not the path's. Null when the OS does not say; read it before close().
   */
  socketDrops(id: number): number | null {
    const socket = this.sockets.get(id);
    if (!socket) return null;
    try {
      const local = socket.address().port;
      let remote = 0;
      try {
        remote = socket.remoteAddress().port;
      } catch {
        remote = 0; // not connected: Longhaul's own sockets
      }
      return udpSocketDrops({ localPort: local, remotePort: remote });
    } catch {
      return null; // not bound, or closed
    }
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
        this.sockets.get(id)?.send(buf, port, host, () => undefined); // a lost or refused hello is sent again
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
    this.sockets.set(id, socket);
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
    const all = [...this.sockets.values()];
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

  private onDatagram(id: number, msg: Buffer): void {
    const d = readLonghaulHeader(msg, this.opts.tag);
    const stream = d && d.streamId === id ? this.stats.get(id) : undefined;
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
