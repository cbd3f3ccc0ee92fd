/**
 * An iperf3 server's UDP listener (`longhaul listen --iperf3` for `iperf3 -c -u`): bound on the
 * server's own port (iperf3 uses one number for TCP control and UDP data) before CREATE_STREAMS,
 * with SO_REUSEADDR so each stream's socket can be bound beside it (udp/iperf3-connect.ts). Each
 * connect message from an address not yet joined is the next stream, in the order they come (the
 * client waits for each reply before its next stream, so the order is its order); that stream's
 * worker binds, connects to the sender of the message and replies. Anything else is dropped.
 */
import dgram from 'node:dgram';
import { isIPv6 } from 'node:net';
import { isIperf3ConnectMessage } from '../data-plane/udp/datagram.js';
import { udpIperf3Join } from '../data-plane/udp/udp-setup.js';
import type { DataPlane } from '../data-plane/data-plane.js';
import type { UdpPeerAddress } from '../data-plane/worker-messages.js';
import { LonghaulError } from '../../util/errors.js';

/** Connect messages waiting for their turn at most (a client has one in flight; more is a flood, dropped). */
const MAX_WAITING = 64;

export class Iperf3UdpListener {
  /** Datagrams that were not a new stream's connect message (dropped). */
  strangers = 0;
  private readonly joined = new Set<string>();
  private readonly waiting: UdpPeerAddress[] = [];
  private next: ((peer: UdpPeerAddress) => void) | null = null;

  private constructor(
    private readonly socket: dgram.Socket,
    readonly host: string,
    readonly port: number,
  ) {
    socket.on('message', (msg, from) => this.onMessage(msg, { address: from.address, port: from.port }));
    socket.on('error', () => undefined); // an ICMP error for a stranger is not the test's
  }

  /** Bind on host:port beside the streams to come; a port another program holds is LH_ERR_IPERF3_UDP_PORT. */
  static async open(host: string, port: number): Promise<Iperf3UdpListener> {
    const socket = dgram.createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4', reuseAddr: true });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind(port, host, () => {
          socket.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      socket.close();
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      throw new LonghaulError(
        'LH_ERR_IPERF3_UDP_PORT',
        `UDP port ${port} on ${host} could not be bound for the iperf3 client's streams (${code}): another program holds it`,
      );
    }
    return new Iperf3UdpListener(socket, host, port);
  }

  /**
   * Take `ids.length` streams in order, each joined by its worker (`counters64`: the client's
   * --udp-counters-64bit); rejects after `timeoutMs` without the next one, or on a join's error.
   */
  async accept(plane: DataPlane, ids: readonly number[], counters64: boolean, timeoutMs: number, onStream?: () => void): Promise<void> {
    for (const id of ids) {
      const peer = await this.nextPeer(timeoutMs, ids.length);
      await udpIperf3Join(plane, id, this.host, this.port, peer, counters64);
      onStream?.();
    }
  }

  close(): void {
    this.next = null;
    try {
      this.socket.close();
    } catch {
      // closed already
    }
  }

  private nextPeer(timeoutMs: number, of: number): Promise<UdpPeerAddress> {
    const queued = this.waiting.shift();
    if (queued) return Promise.resolve(this.take(queued));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.next = null;
        reject(new LonghaulError('LH_ERR_TIMEOUT', `the iperf3 client opened ${this.joined.size} of ${of} UDP streams within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      timer.unref?.();
      this.next = (peer) => {
        clearTimeout(timer);
        this.next = null;
        resolve(this.take(peer));
      };
    });
  }

  private take(peer: UdpPeerAddress): UdpPeerAddress {
    this.joined.add(`${peer.address}|${peer.port}`);
    return peer;
  }

  private onMessage(msg: Buffer, from: UdpPeerAddress): void {
    const key = `${from.address}|${from.port}`;
    // A repeated message of a stream joined or waiting (its reply was slow or lost) is not a new stream.
    const known = this.joined.has(key) || this.waiting.some((w) => `${w.address}|${w.port}` === key);
    if (!isIperf3ConnectMessage(msg) || known) {
      this.strangers++;
      return;
    }
    if (this.next) return this.next(from);
    if (this.waiting.length < MAX_WAITING) this.waiting.push(from);
    else this.strangers++;
  }
}
