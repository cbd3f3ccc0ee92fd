/**
 * A chain: the stages of one direction of one connection, in order, with a
 * bounded FIFO queue in front of each queue stage and a final "wire-out"
 * queue the pipe writes from. Built from validated JSON; a chain that
 * replaces another takes over its stages' running state (congestion window…).
 */
import { createStage, linkShape } from './registry.js';
import { isGate, isQueue, type FlightView, type GateBehaviour, type QueueBehaviour, type Stage, type StageConfig, type StageContext } from './stage.js';
import './stages/index.js';

/** Largest chunk when no stage asks for smaller ones. */
export const DEFAULT_CHUNK_BYTES = 64 * 1024;
/** What may wait between the last stage and the destination socket. */
const WIRE_OUT_BYTES = 64 * 1024;

/** What a queue needs of its stage: when bytes depart it (a queue stage always says). */
type QueueStage = QueueBehaviour & { readonly type: string };

interface Queued {
  /** Bytes of this chunk (the bytes themselves stay in order in the pipe's mover). */
  bytes: number;
  /** Ideal time this chunk may leave its queue, ms (pipe clock). */
  dueMs: number;
  /** It was due but the next queue was full: its real departure is later than dueMs. */
  blocked: boolean;
  /** Held this long at delivery after dueMs (a modelled retransmission), ms. */
  holdMs: number;
  /** Acknowledged already (selectively, while a held chunk ahead of it kept it from the destination). */
  acked: boolean;
}

/** A bounded FIFO in front of one queue stage. */
export class StageQueue {
  bytes = 0;
  private items: Queued[] = [];
  private head = 0;

  constructor(
    readonly stage: QueueStage,
    readonly limitBytes: number,
  ) {}

  get length(): number {
    return this.items.length - this.head;
  }

  get hasRoom(): boolean {
    return this.bytes < this.limitBytes;
  }

  peek(): Queued | undefined {
    return this.items[this.head];
  }

  push(bytes: number, dueMs: number, holdMs = 0): void {
    this.items.push({ bytes, dueMs, blocked: false, holdMs, acked: false });
    this.bytes += bytes;
  }

  /** The `i`-th chunk from the head (0 = head), or undefined. */
  at(i: number): Queued | undefined {
    return this.items[this.head + i];
  }

  shift(): Queued {
    const q = this.items[this.head];
    if (!q) throw new Error('relay invariant: shift() on an empty queue');
    this.head++;
    this.bytes -= q.bytes;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return q;
  }

  /** Make everything due by `nowMs` (bypass switched on). Order is kept. */
  expedite(nowMs: number): void {
    for (const q of this.items.slice(this.head)) {
      q.dueMs = Math.min(q.dueMs, nowMs);
      q.holdMs = 0;
    }
  }
}

const wireOut: QueueStage = { type: 'wire-out', departAt: (_b, t) => t };

export class Chain {
  readonly stages: Stage[];
  /** Queues in order; the last one is the wire-out queue. */
  readonly queues: StageQueue[];
  /** The queue bytes enter (the wire-out queue when no stage queues). */
  readonly entry: StageQueue;
  /** The last queue: bytes leave it for the sink. */
  readonly wireOut: StageQueue;
  readonly chunkBytes: number;
  /** Sum of the stages' base one-way delays, ms (registry.ts linkShape). */
  readonly delayMs: number;
  private readonly gates: GateBehaviour[];

  constructor(
    readonly configs: readonly StageConfig[],
    ctx: StageContext,
    previous?: Chain,
  ) {
    this.stages = configs.map((c) => createStage(c, ctx));
    for (const s of this.stages) {
      const old = previous?.stages.find((p) => p.type === s.type);
      if (old) s.inherit?.(old);
    }
    const queueStages = this.stages.filter(isQueue);
    this.queues = queueStages.map((s) => new StageQueue(s, s.queueLimitBytes ?? WIRE_OUT_BYTES));
    // Chunks behind a held one wait here in order (the receiver's out-of-order queue): room for them
    // all, so that a hold never backs up into the link's queues (the in-flight cap bounds them).
    const holds = queueStages.some((s) => s.takeHoldMs);
    this.wireOut = new StageQueue(wireOut, holds ? Math.max(WIRE_OUT_BYTES, ...queueStages.map((s) => s.queueLimitBytes ?? 0)) : WIRE_OUT_BYTES);
    this.queues.push(this.wireOut);
    this.entry = this.queues[0] ?? this.wireOut;
    this.gates = this.stages.filter(isGate);
    this.chunkBytes = Math.min(DEFAULT_CHUNK_BYTES, ...this.stages.map((s) => s.chunkBytes ?? Infinity));
    this.delayMs = linkShape(configs).oneWayDelayMs;
  }

  /** Bytes anywhere in this chain's queues. */
  get queuedBytes(): number {
    return this.queues.reduce((sum, q) => sum + q.bytes, 0);
  }

  /** The in-flight cap now: the smallest of the gates' caps (Infinity without gates). */
  capBytes(flight: FlightView): number {
    let cap = Infinity;
    for (const g of this.gates) cap = Math.min(cap, g.capBytes(flight));
    return cap;
  }

  onAck(bytes: number, flight: FlightView, atMs: number): void {
    for (const s of this.stages) s.onAck?.(bytes, flight, atMs);
  }

  onLoss(flight: FlightView): void {
    for (const s of this.stages) s.onLoss?.(flight);
  }
}
