/**
 * The shape every impairment stage has. A stage is one small object, created
 * from one JSON object (`{ "type": "delay", "delayMs": 650 }`), that does one
 * job in one of two ways:
 *
 * - a *queue* stage (`departAt`): chunks pass through it in FIFO order, and it
 *   says when each may leave (delay, rate, loss). Times are ideal times: a
 *   chunk that left the stage before at 10.0 ms enters this one at 10.0 ms
 *   even if the timer fired at 11.3 ms, so timer lateness never accumulates.
 * - a *gate* stage (`capBytes`): it limits the bytes in flight over the
 *   emulated path (read from the sender, not yet "acknowledged" one return
 *   delay after delivery) — window, slow start, the loss model's halving.
 *
 * What a user-space TCP relay cannot do: drop or reorder packets of the real
 * TCP connections (each side only talks to the proxy over loopback). Loss is
 * therefore a *model* of a loss's effect (stages/loss.ts), not a dropped packet.
 */

/** Said wherever loss or the emulator's limits are shown (CLI, docs, results, UI); the loss stage's caveat. */
export const EMULATION_NOTE =
  'user-space relay: each side talks TCP to the proxy over loopback, so no packet of theirs is ever dropped or reordered; ' +
  'rate, delay and the window are applied to the byte stream, and "loss" is modelled: a lost segment reaches the receiver one RTT late with everything behind it (TCP delivers in order), and the in-flight cap halves';

/** What a gate stage may look at: the pipe's in-flight ledger. */
export interface FlightView {
  /** Bytes admitted into the emulated path and not yet acknowledged. */
  readonly inFlightBytes: number;
}

/** What a stage gets from the pipe it lives in. */
export interface StageContext {
  /** `up`: client → target; `down`: target → client. */
  readonly direction: LinkDirection;
  /** The emulated round-trip time now, ms: this direction's delays plus the return direction's. */
  rttMs(): number;
  /** Uniform [0, 1); stages with a `seed` use their own generator instead. */
  random(): number;
  /** State shared by the same direction of every connection (one link, one serialization clock). */
  readonly shared: Map<string, unknown>;
  /** Tell every stage of this chain that the loss model decided a segment was lost. */
  signalLoss(): void;
}

export type LinkDirection = 'up' | 'down';

/** One stage's JSON: a `type` registered in the stage registry, plus its own fields. */
export interface StageConfig {
  type: string;
  [field: string]: unknown;
}

/** What every stage has, whatever its kind. */
interface StageCommon {
  readonly type: string;
  /** `bytes` were acknowledged (one return delay after delivery), at `atMs` (ideal time, pipe clock). */
  onAck?(bytes: number, flight: FlightView, atMs: number): void;
  /** The loss model declared a loss on this chain. */
  onLoss?(flight: FlightView): void;
  /** Largest chunk this stage wants to see (smaller chunks pace more smoothly). */
  readonly chunkBytes?: number;
  /** Take over the running state (e.g. a congestion window) of the same-type stage this one replaces. */
  inherit?(previous: Stage): void;
  /** The JSON this stage was made from (recorded in results). */
  readonly config: StageConfig;
}

/** A queue: chunks pass through in FIFO order, and it says when each may leave. */
export interface QueueBehaviour {
  /** When a chunk of `bytes`, ready at `readyAtMs`, may leave. ≥ readyAtMs, never before the previous chunk. */
  departAt(bytes: number, readyAtMs: number): number;
  /**
   * How long the chunk `departAt` just scheduled is held at delivery, ms (0: not held).
   * The loss model's retransmission: the chunk and, to keep order, every chunk behind it reach the
   * destination that much later, while those behind it are acknowledged on time (as SACK does).
   */
  takeHoldMs?(): number;
  /** Bytes that may wait in this stage before the stage upstream is held (backpressure). */
  readonly queueLimitBytes?: number;
}

/** A gate: it limits the bytes in flight over the emulated path. */
export interface GateBehaviour {
  /** The most bytes that may be in flight now. */
  capBytes(flight: FlightView): number;
}

/** A stage is a queue, a gate, or both (the loss model delays a lost chunk and halves the cap). */
export type QueueStage = StageCommon & QueueBehaviour & { readonly kind: 'queue' };
export type GateStage = StageCommon & GateBehaviour & { readonly kind: 'gate' };
export type QueueGateStage = StageCommon & QueueBehaviour & GateBehaviour & { readonly kind: 'queue+gate' };
export type Stage = QueueStage | GateStage | QueueGateStage;

export function isQueue(s: Stage): s is QueueStage | QueueGateStage {
  return s.kind !== 'gate';
}

export function isGate(s: Stage): s is GateStage | QueueGateStage {
  return s.kind !== 'queue';
}

/** What a stage contributes to the emulated link's shape: the pipe sizes its buffers from the rate, the RTT sums the delays. */
export interface LinkShare {
  rateBitsPerSec?: number;
  oneWayDelayMs?: number;
}

/** Default segment size: a 1500-byte MTU less IPv4, TCP and timestamp headers (what Linux uses). */

/** Small deterministic PRNG (mulberry32), for stages given a `seed`: a test can replay its losses. */
