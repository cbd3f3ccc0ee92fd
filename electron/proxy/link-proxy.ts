/**
 * The link-emulator proxy: listens locally and forwards every connection
 * (control and data alike) to one target through the configured stage chains.
 * Plain Node: the CLI, the app's main process and the tests run the same code.
 *
 *   const proxy = new LinkProxy({ target: { host, port }, link: parseLinkSpec(json) });
 *   const { port } = await proxy.listen();
 *   proxy.configure(otherSpec);   // while traffic flows; nothing lost or reordered
 *   proxy.setBypass(true);        // all stages off, like the seed's hardware switch
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { availableParallelism } from 'node:os';
import { nativeSockets } from '../native/load-native.js';
import { tuneListener } from '../native/tuned-socket.js';
import { relaySocketBytesFor } from './pipe.js';

import { performance } from 'node:perf_hooks';
import type { EmulatorWatchInfo, UdpRelayDirectionInfo } from '../contract/link-info.js';
import { LonghaulError, PeerError } from '../util/errors.js';
import { EmulatorWatch, LATE_MS } from './emulator-watch.js';
import type { LinkSpec } from './link-settings.js';
import { ProxyConnection } from './proxy-connection.js';
import { chooseRelay, type RelayChoice } from './relay-mode.js';
import { STALL_MS, StallClock } from './stall-clock.js';
import type { LinkDirection } from './stage.js';
import { lossStatsOf, type LossStats } from './stages/loss.js';
import { UdpRelay } from './udp/udp-relay.js';

interface LinkProxyOptions {
  target: { host: string; port: number };
  link: LinkSpec;
  /** Listen address; default 127.0.0.1 (the proxy is a local tool). */
  host?: string;
  /** Listen port; default 0 (any free port). */
  port?: number;
  connectTimeoutMs?: number;
  /** Clock in ms (monotonic); tests may pass their own. */
  now?: () => number;
  /** The byte mover; default: relay-mode.ts's choice for this PC. */
  relay?: RelayChoice;
}

interface LinkProxyEvents {
  connection: [ProxyConnection];
  /** A client could not be connected to the target, or a connection was torn down. */
  'connection-error': [LonghaulError];
  /** Bypass switched; `atMs` on the proxy's clock. */
  bypass: [boolean, number];
  configured: [LinkSpec];
}

export class LinkProxy extends EventEmitter<LinkProxyEvents> {
  private readonly server: net.Server;
  /** Further listeners, each for another port of the target (forward()), on the same link. */
  private readonly forwards = new Map<number, net.Server>();
  /** UDP relays, each for a port of the target (forwardUdp()), on the same link. */
  private readonly udpRelays = new Map<number, Promise<UdpRelay>>();
  private readonly udpOpen = new Set<UdpRelay>();
  private readonly connections = new Set<ProxyConnection>();
  private readonly pending = new Set<net.Socket>();
  private readonly shared: Record<LinkDirection, Map<string, unknown>> = { up: new Map(), down: new Map() };
  private readonly watch: Record<LinkDirection, EmulatorWatch> = { up: new EmulatorWatch(), down: new EmulatorWatch() };
  /** Which byte mover carries this proxy's connections (relay-mode.ts). */
  readonly relay: RelayChoice;
  /** The process's CPU use when this proxy was made: its figures count from here (not the process's start-up). */
  private readonly cpuAtStart = process.cpuUsage();
  private readonly stalls: StallClock;
  private spec: LinkSpec;
  private bypassOn = false;
  private closing: Promise<void> | null = null;
  readonly now: () => number;

  constructor(private readonly o: LinkProxyOptions) {
    super();
    this.spec = o.link;
    this.relay = o.relay ?? chooseRelay();
    this.now = o.now ?? (() => performance.now());
    this.stalls = new StallClock(this.now);
    this.server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }, (c) => this.onClient(c, o.target));
  }

  /**
   * Carry connections to `targetPort` of the same target host through this link too (its
   * stages, shared state and bypass): a responder that takes a run's data connections on a port
   * of their own. Resolves with the local port to connect to; asking again reuses it.
   */
  forward(targetPort: number): Promise<number> {
    const known = this.forwards.get(targetPort);
    if (known) return Promise.resolve((known.address() as net.AddressInfo).port);
    const target = { host: this.o.target.host, port: targetPort };
    const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }, (c) => this.onClient(c, target));
    this.forwards.set(targetPort, server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, this.o.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        this.shrinkRelayBuffers(server);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  }

  /**
   * Relay UDP datagrams to `targetPort` of the target host through this link, both ways (a UDP
   * stream's port, udp/udp-relay.ts); resolves with the local port to send to. Asking again reuses it.
   */
  forwardUdp(targetPort: number): Promise<number> {
    if (this.closing) return Promise.reject(new Error('the link proxy is closing'));
    let relay = this.udpRelays.get(targetPort);
    if (!relay) {
      relay = UdpRelay.open(
        this.o.host ?? '127.0.0.1',
        { host: this.o.target.host, port: targetPort },
        {
          chains: this.spec.chains,
          shared: this.shared,
          watch: this.watch,
          bypass: () => this.bypassOn,
          now: this.now,
        },
      );
      this.udpRelays.set(targetPort, relay);
      relay.then(
        (r) => (this.closing ? r.close() : this.udpOpen.add(r)),
        () => this.udpRelays.delete(targetPort),
      );
    }
    return relay.then((r) => r.port);
  }

  /** What the UDP relays did so far, per direction, all streams together; null when this proxy relayed no UDP. */
  udpFigures(): Record<LinkDirection, UdpRelayDirectionInfo | null> | null {
    if (!this.udpOpen.size) return null;
    const each = [...this.udpOpen].map((r) => r.figures());
    return { up: sumUdp(each.map((f) => f.up)), down: sumUdp(each.map((f) => f.down)) };
  }

  /** Start listening; resolves with the bound address. */
  listen(): Promise<net.AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.o.port ?? 0, this.o.host ?? '127.0.0.1', () => {
        this.server.off('error', reject);
        this.shrinkRelayBuffers(this.server);
        resolve(this.server.address() as net.AddressInfo);
      });
    });
  }

  /**
   * A relay that buffers megabytes between the sender and the emulated link is a queue no
   * real path has: after a timed run's deadline it would drain for minutes at satellite
   * rates. Accepted sockets inherit the listener's receive buffer, so keep it to 2 ms of
   * the link's rate (pipe.ts relaySocketBytesFor): small on a slow link, large enough on
   * a fast one that the sender never waits for the relay. Without a rate stage, or without
   * the native addon, the OS's autotuning stays. Set again when the link is reconfigured,
   * for the connections accepted after that.
   */
  private shrinkRelayBuffers(server: net.Server): void {
    const status = nativeSockets();
    const bytes = relaySocketBytesFor(this.spec.chains.up);
    if (status.api && bytes !== null) tuneListener(status.api, server, bytes, 'buffers');
  }

  get link(): LinkSpec {
    return this.spec;
  }

  get bypass(): boolean {
    return this.bypassOn;
  }

  /** What the loss model did so far, per direction (all connections); null where no loss stage ran. */
  lossStats(): Record<LinkDirection, LossStats | null> {
    return { up: lossStatsOf(this.shared.up), down: lossStatsOf(this.shared.down) };
  }

  /** The emulator's own figures so far: did it keep its schedule (emulator-watch.ts)? */
  emulatorFigures(): EmulatorWatchInfo {
    const cpu = process.cpuUsage(this.cpuAtStart);
    return {
      relay: this.relay.kind,
      relayReason: this.relay.reason,
      lateMs: LATE_MS,
      cpuSeconds: Math.round((cpu.user + cpu.system) / 1e3) / 1e3,
      cores: availableParallelism(),
      stalledSeconds: Math.round(this.stalls.stalledMs) / 1000,
      stallMs: STALL_MS,
      up: this.watch.up.figures(),
      down: this.watch.down.figures(),
    };
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Apply a new (already validated) link to every connection, now and later. */
  configure(spec: LinkSpec): void {
    this.spec = spec;
    for (const c of this.connections) c.reconfigure(spec.chains);
    for (const r of this.udpOpen) r.reconfigure(spec.chains);
    for (const server of [this.server, ...this.forwards.values()]) if (server.listening) this.shrinkRelayBuffers(server);
    this.emit('configured', spec);
  }

  /** Switch every stage off (true) or back on (false); records nothing itself, emits `bypass`. */
  setBypass(on: boolean): void {
    if (on === this.bypassOn) return;
    this.bypassOn = on;
    for (const c of this.connections) c.setBypass(on);
    this.emit('bypass', on, this.now());
  }

  /** Stop listening and tear down every connection. Idempotent. */
  close(): Promise<void> {
    this.closing ??= new Promise((resolve) => {
      this.stalls.stop();
      for (const c of this.connections) c.destroy();
      for (const s of this.pending) s.destroy();
      for (const f of this.forwards.values()) if (f.listening) f.close();
      for (const r of this.udpOpen) r.close();
      if (!this.server.listening) return resolve();
      this.server.close(() => resolve());
    });
    return this.closing;
  }

  private onClient(client: net.Socket, to: { host: string; port: number }): void {
    if (this.closing) return void client.destroy();
    const { host, port } = to;
    client.on('error', () => undefined); // until the connection owns it
    this.pending.add(client);
    const target = net.connect({ host, port, allowHalfOpen: true });
    const timer = setTimeout(() => target.destroy(new Error('ETIMEDOUT')), this.o.connectTimeoutMs ?? 10_000);
    const fail = (err: NodeJS.ErrnoException): void => {
      clearTimeout(timer);
      this.pending.delete(client);
      client.destroy();
      const refused = err.code === 'ECONNREFUSED';
      this.emit(
        'connection-error',
        new PeerError(
          refused ? 'LH_ERR_REFUSED' : 'LH_ERR_PEER_GONE',
          refused
            ? `the target ${host}:${port} refused the connection: is a responder listening there?`
            : `cannot reach the target ${host}:${port} (${err.code ?? err.message}); the client's connection was closed`,
        ),
      );
    };
    target.once('error', fail);
    target.once('connect', () => {
      // Paused before Node's first read: the connection's mover decides who reads (the relay thread, or Node on credit).
      target.pause();
      clearTimeout(timer);
      target.off('error', fail);
      this.pending.delete(client);
      if (this.closing || client.destroyed) {
        target.destroy();
        client.destroy();
        return;
      }
      const conn = new ProxyConnection({
        client,
        target,
        chains: this.spec.chains,
        shared: this.shared,
        bypass: this.bypassOn,
        now: this.now,
        relay: this.relay,
        watch: this.watch,
      });
      this.connections.add(conn);
      this.stalls.start(() => this.connections.size > 0);
      conn.once('close', (err) => {
        this.connections.delete(conn);
        if (err) this.emit('connection-error', err);
      });
      this.emit('connection', conn);
    });
  }
}

/** The relays' figures for one direction, summed (null when none saw a datagram; the emulator's drops unknown when one relay's are). */
function sumUdp(list: readonly (UdpRelayDirectionInfo | null)[]): UdpRelayDirectionInfo | null {
  const seen = list.filter((f): f is UdpRelayDirectionInfo => f !== null);
  if (!seen.length) return null;
  const sum = (k: 'datagrams' | 'delivered' | 'lostOnLink' | 'queueDropped' | 'sendErrors'): number => seen.reduce((a, f) => a + f[k], 0);
  const dropped = seen.map((f) => f.emulatorDropped);
  return {
    datagrams: sum('datagrams'),
    delivered: sum('delivered'),
    lostOnLink: sum('lostOnLink'),
    queueDropped: sum('queueDropped'),
    emulatorDropped: dropped.some((d) => d === null) ? null : dropped.reduce((a: number, d) => a + (d ?? 0), 0),
    sendErrors: sum('sendErrors'),
  };
}
