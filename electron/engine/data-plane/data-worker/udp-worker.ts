/**
 * A data worker's UDP streams (issue 38; docs/udp.md): senders of `bufferBytes`-byte datagrams
 * paced at the run's bitrate, or receiving sockets (one per stream) for this worker's streams. The same
 * messages as the TCP worker (worker.ts) where they mean the same (start, stop, cut, drain,
 * samples, done), and its own where UDP differs: `udp-listen` binds the receiving socket, `udp-send`
 * aims a sender, `udp-last` gives the receivers each sender's last sequence number, so they count
 * the tail and end without a FIN to wait for.
 */
import { ProcessCpuClock } from '../cpu-use.js';
import { UDP_DEFAULT_BITS_PER_SEC, type UdpCounts } from '../../../contract/udp.js';
import type { StreamEnd } from '../../../protocol/messages.js';
import { UdpReceiver } from '../udp/udp-receiver.js';
import { UdpSender } from '../udp/udp-sender.js';
import type { FromWorker, ToWorker, UdpPeers, WorkerInit } from '../worker-messages.js';
import { systemClock, type Clock } from './stream.js';
import { dataPath } from '../../../native/data-path.js';
import { nativeSockets } from '../../../native/load-native.js';

/**
 * Quiet that ends a receiver once every sender's last number is known (`udp-last`) but not all of it
 * arrived: the message crossed the same path after the last datagram, so what is still in flight is
 * what another queue on the path holds beyond it. (The whole stop grace, 3 s, drew 0 bit/s intervals
 * after every lossy run and added 3 s to each --udp-ramp step; iperf3 waits for nothing.)
 */
const LAST_KNOWN_QUIET_MS = 500;
/** A receivers' check this much later than its period means the process was not running (see watchReceivers). */
const STALL_SLACK_MS = 100;

interface UdpWorkerDeps {
  send(msg: FromWorker): void;
  clock?: Clock;
}

interface SendStream {
  id: number;
  sender: UdpSender;
  connected: boolean;
  done: boolean;
}

export class UdpWorker {
  private readonly clock: Clock;
  private readonly injectedClock: boolean;
  private readonly senders = new Map<number, SendStream>();
  private receiver: UdpReceiver | null = null;
  private receiveIds: number[] = [];
  private lastSeq = new Map<number, number>();
  private startNs = 0n;
  private deadlineNs: bigint | null = null;
  private started = false;
  private stopping = false;
  private doneSent = false;
  private tickIndex = 0;
  private cpuClock: ProcessCpuClock | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private graceTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly init: WorkerInit,
    private readonly deps: UdpWorkerDeps,
  ) {
    this.clock = deps.clock ?? systemClock;
    this.injectedClock = deps.clock !== undefined;
  }

  handle(msg: Exclude<ToWorker, WorkerInit>): void {
    switch (msg.type) {
      case 'udp-listen':
        return void this.listen(msg.ids, msg.host, Buffer.from(msg.tagB64, 'base64'), msg.peers ?? null);
      case 'udp-serve':
        return void this.serve(msg.id, msg.host, Buffer.from(msg.tagB64, 'base64'), msg.bytes);
      case 'udp-send':
        return void this.aim(msg.id, msg.host, msg.port, Buffer.from(msg.tagB64, 'base64'), msg.bytes);
      case 'start':
        return this.start(BigInt(msg.startNs));
      case 'stop':
        return this.stop(msg.graceMs);
      case 'cut':
        return this.stop(0);
      case 'udp-iperf3':
        return void this.iperf3(msg);
      case 'udp-last':
        for (const [id, seq] of msg.lastSeq) this.lastSeq.set(id, seq);
        return this.maybeReceiversDone();
      case 'drain':
        // Nothing acknowledges a datagram: the worker cannot tell.
        return this.deps.send({ type: 'drained', acked: false });
      default:
        return;
    }
  }

  /** Bind the receiving socket on `host`; with `peers`, the senders serve and this socket says hello to them. */
  private async listen(ids: number[], host: string, tag: Buffer, peers: UdpPeers | null): Promise<void> {
    this.receiveIds = ids;
    this.receiver = new UdpReceiver({ tag, streamIds: ids, host, receiveBufferBytes: this.init.windowBytes, now: () => this.clock.nowNs() });
    try {
      const ports = await this.receiver.listen();
      if (peers) this.receiver.hello(peers.host, peers.ports);
      for (const [id, port] of ports) this.deps.send({ type: 'udp-port', ids: [id], port });
    } catch (err) {
      for (const id of ids) this.deps.send({ type: 'stream-error', id, code: 'LH_ERR_DATA_STREAM', message: `stream ${id}: ${describe(err)}` });
    }
  }

  private async aim(id: number, host: string, port: number, tag: Buffer, bytes: number | null): Promise<void> {
    const stream = this.addSender(id, host, port, tag, bytes);
    await this.connected(stream, () => stream.sender.connect());
  }

  /** A sender whose receiver dials: bind, say the port, then wait for the receiver's hello. */
  private async serve(id: number, host: string, tag: Buffer, bytes: number | null): Promise<void> {
    const stream = this.addSender(id, host, 0, tag, bytes);
    await this.connected(stream, async () => {
      const { port, peer } = await stream.sender.serve(host);
      this.deps.send({ type: 'udp-port', ids: [id], port, awaitingPeer: true });
      await peer;
    });
  }

  /** A stream with an iperf3 peer: its own socket, iperf3's handshake and header (udp/iperf3-connect.ts). */
  private async iperf3(msg: Extract<ToWorker, { type: 'udp-iperf3' }>): Promise<void> {
    const { id, host, port, peer, counters64, timeoutMs } = msg;
    if (this.init.role === 'send') {
      const stream = this.addSender(id, host, port, Buffer.alloc(0), msg.bytes, { counters64, sharePort: msg.how === 'join' });
      return this.connected(stream, () => (msg.how === 'join' && peer ? stream.sender.joinIperf3(host, port, peer) : stream.sender.dialIperf3(timeoutMs)));
    }
    if (!this.receiver) {
      this.receiveIds = msg.streamIds;
      this.receiver = new UdpReceiver({
        tag: Buffer.alloc(8),
        streamIds: msg.streamIds,
        host,
        receiveBufferBytes: this.init.windowBytes,
        now: () => this.clock.nowNs(),
      });
    }
    const receiver = this.receiver;
    try {
      if (msg.how === 'join' && peer) await receiver.joinIperf3(id, host, port, peer, counters64);
      else await receiver.dialIperf3(id, host, port, counters64, timeoutMs);
      this.deps.send({ type: 'ready', id });
    } catch (err) {
      this.deps.send({ type: 'stream-error', id, code: 'LH_ERR_DATA_STREAM', message: `stream ${id}: ${describe(err)}` });
    }
  }

  private addSender(
    id: number,
    host: string,
    port: number,
    tag: Buffer,
    bytes: number | null,
    iperf3?: { counters64: boolean; sharePort: boolean },
  ): SendStream {
    const sender = new UdpSender({
      host,
      port,
      streamId: id,
      tag,
      datagramBytes: this.init.bufferBytes,
      bitsPerSec: this.init.bitrateBitsPerSec ?? UDP_DEFAULT_BITS_PER_SEC,
      budgetBytes: bytes,
      now: () => this.clock.nowNs(),
      ...(iperf3 ? { iperf3 } : {}),
      // The addon's sender keeps process.hrtime's clock: a test's own clock keeps Node's.
      // iperf3's datagrams always go through Node's: the native sender writes Longhaul's header only.
      native: this.injectedClock || iperf3 !== undefined || dataPath().udpSendIo.io !== 'native' ? null : nativeSockets().api,
    });
    const stream: SendStream = { id, sender, connected: false, done: false };
    this.senders.set(id, stream);
    return stream;
  }

  /** `how` connects the stream's socket to its receiver; then it is ready (and begins if the start came first). */
  private async connected(stream: SendStream, how: () => Promise<void>): Promise<void> {
    const { id, sender } = stream;
    try {
      await how();
      stream.connected = true;
      // A start that came first (its message overtook the connect): this sender begins now.
      if (this.started && !this.stopping) sender.begin(this.deadlineNs);
      this.deps.send({ type: 'ready', id });
    } catch (err) {
      this.deps.send({ type: 'stream-error', id, code: 'LH_ERR_DATA_STREAM', message: `stream ${id}: ${describe(err)}` });
      return;
    }
    void sender.finished.then(() => {
      stream.done = true;
      this.maybeDone();
    });
  }

  private start(startNs: bigint): void {
    if (this.started) return;
    this.started = true;
    this.startNs = startNs;
    this.cpuClock = new ProcessCpuClock();
    this.deadlineNs = this.init.seconds !== null ? startNs + BigInt(Math.round(this.init.seconds * 1e9)) : null;
    for (const s of this.senders.values()) if (s.connected) s.sender.begin(this.deadlineNs);
    this.scheduleTick();
  }

  /** Senders stop now; receivers end once every sender's last number is here, or after `graceMs` without a datagram. */
  private stop(graceMs: number): void {
    this.stopping = true;
    if (!this.started) this.start(this.clock.nowNs());
    for (const s of this.senders.values()) s.sender.stop();
    if (this.receiver) this.watchReceivers(graceMs);
    this.maybeDone();
  }

  private watchReceivers(graceMs: number): void {
    if (this.graceTimer) return;
    let last = -1;
    let quietSince = this.clock.nowNs();
    let checkedAt = quietSince;
    const periodMs = Math.max(1, Math.min(50, graceMs));
    const check = (): void => {
      this.graceTimer = null;
      if (this.doneSent || !this.receiver) return;
      const arrived = this.receiveIds.reduce((a, id) => a + (this.receiver?.counts(id)?.datagrams ?? 0), 0);
      const now = this.clock.nowNs();
      // A check that comes far later than asked means this process did not run (a busy PC): what arrived
      // meanwhile waits unread in the sockets, and a timer runs before them. Quiet counts again from here.
      const stalled = now - checkedAt > BigInt(periodMs + STALL_SLACK_MS) * 1_000_000n;
      checkedAt = now;
      if (arrived !== last || stalled) {
        last = arrived;
        quietSince = now;
      }
      // Each stream's last number known (udp-last came over the control channel, behind the datagrams on the same
      // path): what is still missing is lost or a straggler; LAST_KNOWN_QUIET_MS of quiet ends it, not the whole grace.
      const quietMs = this.allLastKnown() ? Math.min(graceMs, LAST_KNOWN_QUIET_MS) : graceMs;
      if (this.allLastHere() || now - quietSince >= BigInt(quietMs) * 1_000_000n) return this.finishReceivers();
      this.graceTimer = this.clock.setTimeout(check, periodMs);
    };
    check();
  }

  private allLastKnown(): boolean {
    return this.receiveIds.every((id) => this.lastSeq.has(id));
  }

  /**
   * Every stream's sender said its last number and that number arrived (the highest seen, arrived +
   * gaps below it, reached it): whatever is still missing was lost, not in flight, short of a
   * reordering across the very end. A lossy tail instead waits for the stop's quiet grace.
   */
  private allLastHere(): boolean {
    return this.receiveIds.every((id) => {
      const lastSeq = this.lastSeq.get(id);
      const c = this.receiver?.counts(id);
      return lastSeq !== undefined && c !== null && c !== undefined && c.datagrams + c.lost >= lastSeq;
    });
  }

  private maybeReceiversDone(): void {
    if (this.stopping && this.receiver && this.allLastHere()) this.finishReceivers();
  }

  private receiversFinished = false;

  private finishReceivers(): void {
    if (this.receiversFinished) return;
    this.receiversFinished = true;
    if (this.graceTimer) this.clock.clearTimeout(this.graceTimer);
    this.maybeDone();
  }

  private maybeDone(): void {
    if (this.doneSent || !this.started) return;
    for (const s of this.senders.values()) if (!s.done) return;
    if (this.receiver && !this.receiversFinished) return;
    this.doneSent = true;
    if (this.tickTimer) this.clock.clearTimeout(this.tickTimer);
    const t = Number(this.clock.nowNs() - this.startNs) / 1e9;
    this.deps.send({ type: 'sample', index: this.tickIndex + 1, t, final: true, streams: this.sampleStreams(), ...this.sampleUdp() });
    // The worker's process time is the datagrams' CPU: Node's event loop and the addon's sender threads (udp_send.cc) both live in it.
    const cpu = this.cpuClock?.elapsed();
    this.deps.send({
      type: 'done',
      streams: this.ends(),
      ...(cpu ? { cpu: { userSeconds: cpu.userSeconds, systemSeconds: cpu.systemSeconds, threads: null } } : {}),
    });
    void this.receiver?.close();
  }

  private scheduleTick(): void {
    const intervalNs = BigInt(Math.round(this.init.intervalMs * 1e6));
    const due = this.startNs + BigInt(this.tickIndex + 1) * intervalNs;
    const waitMs = Math.max(0, Number(due - this.clock.nowNs()) / 1e6);
    this.tickTimer = this.clock.setTimeout(() => {
      this.tickIndex++;
      const t = Number(this.clock.nowNs() - this.startNs) / 1e9;
      this.deps.send({ type: 'sample', index: this.tickIndex, t, final: false, streams: this.sampleStreams(), ...this.sampleUdp() });
      this.scheduleTick();
    }, waitMs);
  }

  /** [id, bytes, datagrams]: a sender's handed to the OS, a receiver's counted. */
  private sampleStreams(): [number, number, number][] {
    const out: [number, number, number][] = [];
    for (const s of this.senders.values()) out.push([s.id, s.sender.counts.bytes, s.sender.counts.datagrams]);
    for (const id of this.receiveIds) {
      const c = this.receiver?.counts(id);
      out.push([id, c?.bytes ?? 0, c?.datagrams ?? 0]);
    }
    return out;
  }

  private sampleUdp(): { udp?: [number, UdpCounts][] } {
    if (!this.receiver) return {};
    const receiver = this.receiver;
    return {
      udp: this.receiveIds.flatMap((id): [number, UdpCounts][] => {
        const c = receiver.counts(id);
        return c ? [[id, c]] : [];
      }),
    };
  }

  private secondsSinceStart(ns: bigint): number | null {
    return ns === 0n ? null : Number(ns - this.startNs) / 1e9;
  }

  private ends(): StreamEnd[] {
    const ends: StreamEnd[] = [];
    for (const s of this.senders.values()) {
      const c = s.sender.counts;
      ends.push({
        id: s.id,
        role: 'send',
        bytes: c.bytes,
        completions: c.datagrams,
        firstT: this.secondsSinceStart(s.sender.firstNs),
        lastT: this.secondsSinceStart(s.sender.lastNs),
        error:
          c.sendErrors > 0 && c.datagrams === 0
            ? { code: 'LH_ERR_DATA_STREAM', message: `stream ${s.id}: every send failed (${c.lastError ?? 'unknown'})` }
            : null,
        udp: { lastSeq: s.sender.lastSeq, shortBytes: c.shortBytes, sendErrors: c.sendErrors },
        io: s.sender.io,
        pacing: { mechanism: "Longhaul's own pacing", reason: 'UDP: each datagram is sent when its schedule says', kernelCapBytesPerSec: null },
      });
    }
    for (const id of this.receiveIds) {
      const counts = this.receiver?.final(id, this.lastSeq.get(id) ?? null) ?? null;
      const socketDrops = this.receiver?.socketDrops(id) ?? null;
      const receiveBufferBytes = this.receiver?.receiveBufferBytes(id) ?? null;
      ends.push({
        id,
        role: 'receive',
        bytes: counts?.bytes ?? 0,
        completions: counts?.datagrams ?? 0,
        firstT: this.secondsSinceStart(this.receiver?.firstNs ?? 0n),
        lastT: this.secondsSinceStart(this.receiver?.lastNs ?? 0n),
        error: null,
        io: 'node',
        ...(counts
          ? { udp: { counts, ...(socketDrops !== null ? { socketDrops } : {}), ...(receiveBufferBytes !== null ? { receiveBufferBytes } : {}) } }
          : {}),
      });
    }
    return ends;
  }
}

function describe(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message ?? String(err);
}
