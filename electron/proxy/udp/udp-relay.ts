/**
 * A UDP stream through the link emulator (issue 38): one local port that relays datagrams to one
 * port of the target, both ways, through the link's stages (datagram-link.ts). It works as a NAT
 * does: the front socket takes datagrams from whoever sends to it (the run's sender, or a
 * receiver's hello) and remembers that address; the back socket, connected to the target's port,
 * carries them on and brings the target's datagrams back to the remembered address.
 *
 *   sender/receiver ──► 127.0.0.1:front ─ up stages ─► back ──► target:port
 *                   ◄── front ◄─ down stages ─ back ◄──
 *
 * Each direction holds its datagrams in one FIFO until the model's time (delay and rate never
 * reorder) and releases on one timer. What the relay itself lost is counted apart from what the
 * emulated link dropped: its sockets' receive-buffer drops (Linux /proc/net/udp; unknown elsewhere)
 * and datagrams beyond what it may hold. Releases later than LATE_MS feed the emulator's watch on
 * itself, as the TCP relay's do.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import type { UdpRelayDirectionInfo } from '../../contract/link-info.js';
import { udpSocketDrops } from '../../util/udp-socket-drops.js';
import type { EmulatorWatch } from '../emulator-watch.js';
import type { LinkDirection } from '../stage.js';
import { DatagramLink } from './datagram-link.js';
import type { LinkChains } from '../proxy-connection.js';

/** The relay's sockets ask the OS for this much receive buffer (Linux caps it at net.core.rmem_max): a burst is held, not dropped. */
const RELAY_SOCKET_BYTES = 4 * 1024 * 1024;

interface Held {
  msg: Buffer;
  atMs: number;
}

interface RelayContext {
  chains: LinkChains;
  shared: Record<LinkDirection, Map<string, unknown>>;
  watch: Record<LinkDirection, EmulatorWatch>;
  bypass: () => boolean;
  now: () => number;
}

class RelayDirection {
  private queue: Held[] = [];
  private head = 0;
  private heldBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerAtMs = Infinity;
  private link: DatagramLink;
  arrived = 0;
  delivered = 0;
  lostOnLink = 0;
  queueDropped = 0;
  heldDropped = 0;
  sendErrors = 0;

  constructor(
    private readonly dir: LinkDirection,
    private readonly ctx: RelayContext,
    private readonly send: (msg: Buffer) => void,
  ) {
    this.link = new DatagramLink(ctx.chains[dir], ctx.shared[dir]);
  }

  reconfigure(chains: LinkChains): void {
    this.link = new DatagramLink(chains[this.dir], this.ctx.shared[this.dir]);
  }

  take(msg: Buffer): void {
    this.arrived += 1;
    const now = this.ctx.now();
    // Bypass: straight through, as the seed's hardware switch put a cable around the simulator.
    if (this.ctx.bypass()) return this.deliver(msg, now, now);
    const fate = this.link.admit(msg.length, now, this.heldBytes);
    if ('drop' in fate) {
      if (fate.drop === 'loss') this.lostOnLink += 1;
      else if (fate.drop === 'queue') this.queueDropped += 1;
      else this.heldDropped += 1;
      return;
    }
    this.queue.push({ msg, atMs: fate.atMs });
    this.heldBytes += msg.length;
    this.arm(fate.atMs);
  }

  private arm(atMs: number): void {
    if (this.timer && this.timerAtMs <= atMs) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAtMs = atMs;
    this.timer = setTimeout(() => this.release(), Math.max(0, atMs - this.ctx.now()));
  }

  private release(): void {
    this.timer = null;
    this.timerAtMs = Infinity;
    const now = this.ctx.now();
    while (this.head < this.queue.length) {
      const h = this.queue[this.head];
      if (!h || h.atMs > now) break;
      this.head += 1;
      this.heldBytes -= h.msg.length;
      this.deliver(h.msg, h.atMs, now);
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    const next = this.queue[this.head];
    if (next) this.arm(next.atMs);
  }

  private deliver(msg: Buffer, dueMs: number, nowMs: number): void {
    this.ctx.watch[this.dir].released(msg.length, dueMs, nowMs, false);
    this.delivered += 1;
    this.send(msg);
  }

  figures(emulatorDropped: number | null): UdpRelayDirectionInfo | null {
    if (this.arrived === 0) return null;
    return {
      datagrams: this.arrived,
      delivered: this.delivered,
      lostOnLink: this.lostOnLink,
      queueDropped: this.queueDropped,
      emulatorDropped: emulatorDropped === null ? null : emulatorDropped + this.heldDropped,
      sendErrors: this.sendErrors,
    };
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
    this.head = 0;
  }
}

export class UdpRelay {
  private client: { address: string; port: number } | null = null;
  private readonly up: RelayDirection;
  private readonly down: RelayDirection;
  /** The two sockets' local ports, kept: a closed socket no longer says. */
  readonly port: number;
  private readonly backPort: number;
  private final: Record<LinkDirection, UdpRelayDirectionInfo | null> | null = null;

  private constructor(
    private readonly front: dgram.Socket,
    private readonly back: dgram.Socket,
    private readonly targetPort: number,
    ctx: RelayContext,
  ) {
    this.port = front.address().port;
    this.backPort = back.address().port;
    this.up = new RelayDirection('up', ctx, (msg) => back.send(msg, (err) => void (err && this.up.sendErrors++)));
    this.down = new RelayDirection('down', ctx, (msg) => {
      const c = this.client;
      if (c) front.send(msg, c.port, c.address, (err) => void (err && this.down.sendErrors++));
    });
    front.on('message', (msg, rinfo) => {
      this.client = { address: rinfo.address, port: rinfo.port };
      this.up.take(msg);
    });
    // Only the target's datagrams reach a connected socket; before the first from the front there is nobody to give them to.
    back.on('message', (msg) => {
      if (this.client) this.down.take(msg);
    });
    // A connected UDP socket reports the target's ICMP "port unreachable" as an error: a datagram lost, not the relay.
    front.on('error', () => undefined);
    back.on('error', () => undefined);
  }

  /** Bind the front on `host` (any free port) and connect the back to `target`. */
  static async open(host: string, target: { host: string; port: number }, ctx: RelayContext): Promise<UdpRelay> {
    const type = net.isIPv6(target.host) ? 'udp6' : 'udp4';
    const front = dgram.createSocket({ type, recvBufferSize: RELAY_SOCKET_BYTES, sendBufferSize: RELAY_SOCKET_BYTES });
    const back = dgram.createSocket({ type, recvBufferSize: RELAY_SOCKET_BYTES, sendBufferSize: RELAY_SOCKET_BYTES });
    try {
      await new Promise<void>((resolve, reject) => {
        front.once('error', reject);
        front.bind(0, net.isIPv6(target.host) && net.isIPv4(host) ? '::1' : host, () => resolve());
      });
      await new Promise<void>((resolve, reject) => {
        back.once('error', reject);
        back.connect(target.port, target.host, () => resolve());
      });
    } catch (err) {
      front.close();
      back.close();
      throw err;
    }
    front.removeAllListeners('error');
    back.removeAllListeners('error');
    return new UdpRelay(front, back, target.port, ctx);
  }

  reconfigure(chains: LinkChains): void {
    this.up.reconfigure(chains);
    this.down.reconfigure(chains);
  }

  /** Per direction (up: toward the target), null where nothing came that way; after close(), as they were then. */
  figures(): Record<LinkDirection, UdpRelayDirectionInfo | null> {
    if (this.final) return this.final;
    const frontDrops = udpSocketDrops({ localPort: this.port, remotePort: 0 });
    const backDrops = udpSocketDrops({ localPort: this.backPort, remotePort: this.targetPort });
    return { up: this.up.figures(frontDrops), down: this.down.figures(backDrops) };
  }

  close(): void {
    if (this.final) return;
    this.final = this.figures();
    this.up.stop();
    this.down.stop();
    this.front.close();
    this.back.close();
  }
}
