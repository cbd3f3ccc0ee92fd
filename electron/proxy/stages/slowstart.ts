/**
 * `slowstart`: the kernel's congestion window, emulated. The in-flight cap
 * starts at `initialSegments` × MSS (10 × 1448 B, as Linux does) and grows by
 * the bytes acknowledged — doubling once per emulated round trip — until a
 * loss; after a loss it is halved and grows by one MSS per round trip
 * (congestion avoidance). Like Linux, it only grows while it is what limits
 * the sender (not while a smaller window or the application limits it).
 *
 *   { "type": "slowstart", "mssBytes": 1448, "initialSegments": 10 }
 */
import { z } from 'zod';
import { LINK_MAX_MSS_BYTES, LINK_MIN_MSS_BYTES } from '../../contract/link-limits.js';
import { registerStage } from '../registry.js';
import { type FlightView, type Stage, type GateStage } from '../stage.js';
import { DEFAULT_MSS_BYTES } from '../../contract/wire.js';

const slowstartSchema = z
  .object({
    type: z.literal('slowstart'),
    mssBytes: z.number().int().min(LINK_MIN_MSS_BYTES).max(LINK_MAX_MSS_BYTES).default(DEFAULT_MSS_BYTES),
    initialSegments: z.number().int().min(1).max(1000).default(10),
    /** Upper bound on the congestion window, bytes (optional). */
    maxBytes: z.number().int().positive().optional(),
  })
  .strict();

type SlowstartConfig = z.infer<typeof slowstartSchema>;

export class SlowstartStage implements GateStage {
  readonly type = 'slowstart';
  readonly kind = 'gate';
  /** Congestion window, bytes. */
  cwndBytes: number;
  /** Slow-start threshold, bytes: above it the window grows linearly. */
  ssthreshBytes = Infinity;

  constructor(readonly config: SlowstartConfig) {
    this.cwndBytes = config.mssBytes * config.initialSegments;
  }

  capBytes(): number {
    return this.cwndBytes;
  }

  onAck(bytes: number, flight: FlightView): void {
    // Linux's tcp_is_cwnd_limited: in slow start, grow while the window is less than twice what is in flight.
    const inFlightBefore = flight.inFlightBytes + bytes;
    if (this.cwndBytes >= 2 * inFlightBefore) return;
    const grow = this.cwndBytes < this.ssthreshBytes ? bytes : (this.config.mssBytes * bytes) / this.cwndBytes;
    this.cwndBytes = Math.min(this.cwndBytes + grow, this.config.maxBytes ?? Infinity);
  }

  onLoss(): void {
    this.ssthreshBytes = Math.max(this.cwndBytes / 2, 2 * this.config.mssBytes);
    this.cwndBytes = this.ssthreshBytes;
  }

  /** A reconfigured chain keeps the connection's congestion state, as a real TCP would. */
  inherit(previous: Stage): void {
    if (previous instanceof SlowstartStage) {
      this.cwndBytes = previous.cwndBytes;
      this.ssthreshBytes = previous.ssthreshBytes;
    }
  }
}

registerStage({
  type: 'slowstart',
  summary: 'congestion window: starts at 10 × MSS, doubles per round trip, halves on a modelled loss',
  schema: slowstartSchema,
  describe: (c) => `slow start from ${c.initialSegments} × ${c.mssBytes} bytes`,
  create: (config) => new SlowstartStage(config),
});
