/**
 * One direction of one proxied connection: read from the source, push the
 * bytes through the current chain, write them to the sink, in order, all of
 * them.
 *
 *   source ─► inbox ─(gates: in-flight cap)─► [queue stage]… ─► wire-out ─► sink
 *                 ▲                                                   │
 *                 └──────── acks, one return delay after delivery ◄───┘
 *
 * The pipe is the model and works on byte counts only; the bytes themselves
 * stay in order in its mover (byte-mover.ts: Node's sockets, or the addon's
 * relay thread), which reads when the pipe gives it credit and writes what
 * the pipe releases. Every byte leaves in the order it came, so a count is
 * all a queue needs.
 *
 * Backpressure everywhere: a full queue holds the one before it, a full inbox
 * withholds the mover's read credit, a sink that needs 'drain' holds the
 * wire-out. Reconfiguring starts a new chain; the old one keeps draining and
 * the sink takes from the oldest non-empty chain first, so nothing is lost or
 * reordered.
 */
import { EventEmitter } from 'node:events';
import type { ByteMover } from './byte-mover.js';
import { Chain, DEFAULT_CHUNK_BYTES, type StageQueue } from './chain.js';
import type { EmulatorWatch } from './emulator-watch.js';
import { linkShape } from './registry.js';
import type { FlightView, StageConfig, StageContext } from './stage.js';

const DEFAULT_INBOX_BYTES = 256 * 1024;
const MIN_INBOX_BYTES = 16 * 1024;
const MAX_INBOX_BYTES = 2 * 1024 * 1024;

/**
 * Every byte held in the inbox is queueing the emulated path does not have (after a timed
 * run's deadline it drains at the link's rate). Hold about 10 ms of the link's rate: enough
 * to keep a fast link busy, a few kilobytes on a satellite link, at most 2 MiB per connection
 * and direction (docs/measurements.md#inbox-hold).
 */
export function inboxLimitFor(configs: readonly StageConfig[]): number {
  const bytes = linkBytesPer(configs, HOLD_MS);
  if (bytes === null) return DEFAULT_INBOX_BYTES;
  return Math.round(Math.min(MAX_INBOX_BYTES, Math.max(MIN_INBOX_BYTES, bytes)));
}

/** How much the relay may hold ahead of the emulated link, in ms of its rate (the inbox, the relay's socket buffer). */
const HOLD_MS = 10;
/** The relay's socket buffer holds less: 2 ms of the rate, 8 KiB up to ~33 Mbit/s (docs/measurements.md#relay-socket). */
const RELAY_SOCKET_HOLD_MS = 2;
const MIN_RELAY_SOCKET_BYTES = 8 * 1024;
const MAX_RELAY_SOCKET_BYTES = 4 * 1024 * 1024;

/** Bytes the link's rate carries in `ms` (its slowest stage's, registry.ts linkShape), or null when the chain has no rate limit. */
function linkBytesPer(configs: readonly StageConfig[], ms: number): number | null {
  const rate = linkShape(configs).rateBitsPerSec;
  return rate ? (rate * ms) / 1000 / 8 : null;
}

/**
 * The receive buffer for the relay's sockets from the sender, or null to leave the OS's
 * autotuning: 2 ms of the link's rate, 8 KiB to 4 MiB. A satellite link gets 8 KiB (no
 * hidden queue drains after a timed run's deadline); a 1 Gbit/s link 250 KB, enough that the
 * sender is not stalled while the relay's event loop is busy elsewhere (docs/measurements.md#relay-socket).
 */
export function relaySocketBytesFor(configs: readonly StageConfig[]): number | null {
  const bytes = linkBytesPer(configs, RELAY_SOCKET_HOLD_MS);
  if (bytes === null) return null;
  return Math.round(Math.min(MAX_RELAY_SOCKET_BYTES, Math.max(MIN_RELAY_SOCKET_BYTES, bytes)));
}

interface PipeOptions {
  mover: ByteMover;
  configs: readonly StageConfig[];
  ctx: StageContext;
  /** One-way delay of the return path, ms: acks arrive this long after delivery. */
  returnDelayMs(): number;
  now(): number;
  inboxLimitBytes?: number;
  /** Where the emulator's own lag is recorded (shared by a direction's connections). */
  watch?: EmulatorWatch;
}

interface PipeEvents {
  /** Every byte was delivered and the sink was ended (the source's FIN passed on). */
  finished: [];
}

export class Pipe extends EventEmitter<PipeEvents> implements FlightView {
  inFlightBytes = 0;
  /** Bytes read from the source / written to the sink. */
  bytesIn = 0;
  bytesOut = 0;
  sourceEnded = false;
  /** Time the mover's reader was behind the sender while the emulated link had nothing to carry, ms (emulator-watch.ts). */
  behindMs = 0;
  private moverBehindMs = 0;
  finished = false;
  /** Every chain still holding bytes, oldest first; the last is `current`. */
  private readonly chains: Chain[];
  /** The chain new bytes enter. */
  private current: Chain;
  /** Bytes read and not yet admitted into the chain (they wait in the mover). */
  private inboxBytes = 0;
  /** Pending acknowledgements, in time order. */
  private readonly acks: { bytes: number; atMs: number }[] = [];
  /** Ideal time of the last ack released, and when the inbox last went from empty to not: an admission is ready at the later of the two. */
  private lastReleasedAckMs = -Infinity;
  private inboxSinceMs = -Infinity;
  private bypass = false;
  private waitingDrain = false;
  /** The sink just drained: what leaves in this pump waited for the receiver, not for the relay. */
  private drained = false;
  private readLimit = -1;
  private destroyed = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAtMs = Infinity;
  private readonly inboxLimit: number;

  constructor(private readonly o: PipeOptions) {
    super();
    this.current = new Chain(o.configs, o.ctx);
    this.chains = [this.current];
    this.inboxLimit = o.inboxLimitBytes ?? inboxLimitFor(o.configs);
    this.pump = this.pump.bind(this);
    o.mover.start({ onRead: (n) => this.onRead(n), onEnd: () => this.onEnd(), onDrain: () => this.onDrain() });
    this.readLimit = this.inboxLimit;
    o.mover.setReadLimit(this.inboxLimit);
  }

  get mover(): ByteMover {
    return this.o.mover;
  }

  /** The chain new bytes enter. */
  get chain(): Chain {
    return this.current;
  }

  /** Swap in a new chain while traffic flows. */
  reconfigure(configs: readonly StageConfig[]): void {
    this.current = new Chain(configs, this.o.ctx, this.current);
    this.chains.push(this.current);
    this.pump();
  }

  /** Bypass on: every stage off, whatever waits leaves now (in order). Off: the stages apply again. */
  setBypass(on: boolean): void {
    if (this.bypass === on) return;
    this.bypass = on;
    if (on) {
      const now = this.o.now();
      for (const c of this.chains) for (const q of c.queues) q.expedite(now);
      for (const a of this.acks) a.atMs = Math.min(a.atMs, now);
    }
    this.pump();
  }

  /** The loss model of this chain declared a loss. */
  signalLoss(): void {
    this.chain.onLoss(this);
  }

  /** Stop everything now (the connection is being torn down). */
  destroy(): void {
    this.destroyed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.o.mover.destroy();
  }

  private onRead(bytes: number): void {
    // The mover's reader was behind the sender for `late` ms before this read; it held the link
    // back only if the link had nothing left to carry (every queue empty): count only that.
    const late = this.o.mover.behindMs - this.moverBehindMs;
    this.moverBehindMs = this.o.mover.behindMs;
    if (late > 0 && this.chains.every((c) => c.queuedBytes === 0)) this.behindMs += late;
    if (this.inboxBytes === 0) this.inboxSinceMs = this.o.now();
    this.inboxBytes += bytes;
    this.bytesIn += bytes;
    this.pump();
  }

  private onEnd(): void {
    this.sourceEnded = true;
    this.pump();
  }

  private onDrain(): void {
    this.waitingDrain = false;
    this.drained = true;
    this.pump();
  }

  /** Move everything that may move now, then sleep until the next thing is due. */
  private pump(): void {
    if (this.destroyed) return;
    const now = this.o.now();
    this.releaseAcks(now);
    for (let moved = true; moved;) {
      moved = this.deliver(now);
      for (const c of this.chains) {
        for (let i = c.queues.length - 1; i > 0; i--) {
          const from = c.queues[i - 1];
          const to = c.queues[i];
          if (from && to) moved = this.advance(from, to, now) || moved;
        }
      }
      moved = this.admit(now) || moved;
    }
    while (this.chains.length > 1 && this.chains[0]?.queuedBytes === 0) this.chains.shift();
    // Read credit: the inbox may hold inboxLimit bytes beyond what the chain took.
    const readLimit = this.bytesIn - this.inboxBytes + this.inboxLimit;
    if (readLimit !== this.readLimit) {
      this.readLimit = readLimit;
      this.o.mover.setReadLimit(readLimit);
    }
    this.maybeFinish();
    this.schedule(now);
  }

  /**
   * Release every acknowledgement due by now, in time order, admitting after each what it
   * freed: those bytes were ready at that ack's ideal time, not at the last one's
   * (docs/measurements.md#ack-release).
   */
  private releaseAcks(now: number): void {
    let n = 0;
    for (let ack = this.acks[n]; ack && ack.atMs <= now; ack = this.acks[n]) {
      n++;
      const { bytes, atMs } = ack;
      this.inFlightBytes -= bytes;
      this.lastReleasedAckMs = atMs;
      if (!this.bypass) this.chain.onAck(bytes, this, atMs);
      const next = this.acks[n];
      if (next && next.atMs <= now) this.admit(now);
    }
    if (n) this.acks.splice(0, n);
  }

  /** Wire-out of the oldest non-empty chain → sink. */
  private deliver(now: number): boolean {
    const chain = this.chains.find((c) => c.queuedBytes > 0);
    if (!chain || this.destroyed) return false;
    const out = chain.wireOut;
    let moved = false;
    for (let head = out.peek(); head && head.dueMs + head.holdMs <= now; head = out.peek()) {
      // Waiting for 'drain' holds the bytes but does not delay their emulated delivery: Node's 16 KiB
      // write threshold is not the receiver's window (measured: counting it cost 3-6 % at 50 Mbit/s).
      // A receiver that stops reading still stops the flow: nothing is written until 'drain'.
      if (this.waitingDrain) break;
      out.shift();
      this.bytesOut += head.bytes;
      this.o.watch?.released(head.bytes, head.dueMs + head.holdMs, now, this.drained);
      const ok = this.o.mover.write(head.bytes);
      if (!head.acked) this.ack(head.bytes, head.blocked ? now : head.dueMs + head.holdMs);
      moved = true;
      if (!ok) this.waitingDrain = true;
    }
    this.selectiveAcks(out, now);
    this.drained = false;
    return moved;
  }

  /** Queue the acknowledgement of `bytes` delivered at `deliveredMs` (acks stay in time order). */
  private ack(bytes: number, deliveredMs: number): void {
    const atMs = this.bypass ? deliveredMs : deliveredMs + this.o.returnDelayMs();
    let i = this.acks.length;
    while (i > 0 && (this.acks[i - 1]?.atMs ?? -Infinity) > atMs) i--;
    this.acks.splice(i, 0, { bytes, atMs });
  }

  /**
   * Behind a held chunk (a modelled retransmission), the chunks that arrived on time are
   * acknowledged on time, as SACK does: the sender keeps sending while the destination waits
   * for the hole to fill. They reach the destination, in order, when the held chunk does.
   */
  private selectiveAcks(out: StageQueue, now: number): void {
    const head = out.peek();
    if (!head || head.holdMs === 0 || head.dueMs + head.holdMs <= now) return;
    for (let i = 1; ; i++) {
      const q = out.at(i);
      if (!q || q.dueMs > now) return;
      if (q.acked || q.holdMs > 0) continue; // a held chunk is acknowledged when it arrives
      q.acked = true;
      this.ack(q.bytes, q.dueMs);
    }
  }

  private advance(from: StageQueue, to: StageQueue, now: number): boolean {
    let moved = false;
    for (let head = from.peek(); head && head.dueMs <= now; head = from.peek()) {
      if (!to.hasRoom) {
        head.blocked = true;
        break;
      }
      from.shift();
      const readyMs = head.blocked ? now : head.dueMs;
      const dueMs = this.bypass ? readyMs : to.stage.departAt(head.bytes, readyMs);
      to.push(head.bytes, dueMs, this.bypass ? 0 : head.holdMs + (to.stage.takeHoldMs?.() ?? 0));
      moved = true;
    }
    return moved;
  }

  /** Inbox → first queue of the current chain, as far as the in-flight cap allows. */
  private admit(now: number): boolean {
    const chain = this.chain;
    const first = chain.entry;
    let moved = false;
    while (this.inboxBytes > 0 && first.hasRoom) {
      const allowed = this.bypass ? Infinity : Math.floor(chain.capBytes(this) - this.inFlightBytes);
      const take = Math.min(this.inboxBytes, this.bypass ? DEFAULT_CHUNK_BYTES : chain.chunkBytes, allowed);
      if (take <= 0) break;
      this.inboxBytes -= take;
      this.inFlightBytes += take;
      // Timer lateness is not the link's: bytes held by the cap were ready when the ack was due.
      const readyMs = Math.min(now, Math.max(this.lastReleasedAckMs, this.inboxSinceMs));
      const dueMs = this.bypass ? now : first.stage.departAt(take, readyMs);
      first.push(take, dueMs, this.bypass ? 0 : (first.stage.takeHoldMs?.() ?? 0));
      moved = true;
    }
    return moved;
  }

  private maybeFinish(): void {
    if (this.finished || !this.sourceEnded || this.inboxBytes > 0) return;
    if (this.chains.some((c) => c.queuedBytes > 0)) return;
    this.finished = true;
    this.o.mover.end();
    this.emit('finished');
  }

  private schedule(now: number): void {
    let next = this.acks[0]?.atMs ?? Infinity;
    for (const c of this.chains) {
      for (const q of c.queues) {
        const head = q.peek();
        if (head && head.dueMs + head.holdMs > now) next = Math.min(next, head.dueMs + head.holdMs);
        if (head && head.holdMs > 0) {
          // The next chunk behind a held one that is still to be acknowledged selectively.
          for (let i = 1, x = q.at(1); x; x = q.at(++i)) {
            if (x.acked || x.holdMs > 0) continue;
            if (x.dueMs > now) next = Math.min(next, x.dueMs);
            break;
          }
        }
      }
    }
    if (!Number.isFinite(next) || next >= this.timerAtMs) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAtMs = next;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAtMs = Infinity;
        this.pump();
      },
      Math.max(0, next - now),
    );
  }
}
