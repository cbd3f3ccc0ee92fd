/**
 * `rate`: a shaper, not a policer. Chunks are serialized one after another at
 * the link rate; a bounded queue in front of the "wire" holds what waits, and
 * when it is full the stage upstream (ultimately the sender's socket) is held.
 *
 *   { "type": "rate", "rateBitsPerSec": 4000000, "queueBytes": 65536 }
 *
 * All connections of one direction share one serialization clock: four
 * streams over a 4 Mbit/s link get 4 Mbit/s together, as on the real link.
 * Rates count payload bytes (a real link also carries ~3-4 % of headers).
 */
import { z } from 'zod';
import { registerStage } from '../registry.js';
import type { Stage, StageConfig, StageContext } from '../stage.js';

const MIN_QUEUE_BYTES = 64 * 1024;
/** Chunks of about 2 ms of serialization, at least one segment: smooth pacing, few timers. */
const CHUNK_MS = 2;
const MSS_BYTES = 1448;

export const rateSchema = z.object({
  type: z.literal('rate'),
  rateBitsPerSec: z.number().positive('rateBitsPerSec must be above 0 (leave the stage out for no limit)').max(1e12),
  /** Default: 100 ms of the rate, at least 64 KiB. */
  queueBytes: z.number().int().positive().optional(),
}).strict();

export type RateConfig = z.infer<typeof rateSchema>;

/** The shared clock: when the emulated wire is next free, ms. */
interface WireClock {
  nextFreeMs: number;
}

export class RateStage implements Stage {
  readonly type = 'rate';
  readonly queueLimitBytes: number;
  readonly chunkBytes: number;
  private readonly wire: WireClock;

  constructor(readonly config: RateConfig & StageConfig, ctx: StageContext) {
    const bytesPerMs = config.rateBitsPerSec / 8 / 1000;
    this.queueLimitBytes = config.queueBytes ?? Math.max(MIN_QUEUE_BYTES, Math.round(bytesPerMs * 100));
    this.chunkBytes = Math.max(MSS_BYTES, Math.round(bytesPerMs * CHUNK_MS));
    let wire = ctx.shared.get('rate.wire') as WireClock | undefined;
    if (!wire) {
      wire = { nextFreeMs: -Infinity };
      ctx.shared.set('rate.wire', wire);
    }
    this.wire = wire;
  }

  /** The chunk's last bit leaves when the wire has serialized everything before it, then it. */
  departAt(bytes: number, readyAtMs: number): number {
    const start = Math.max(readyAtMs, this.wire.nextFreeMs);
    const end = start + (bytes * 8 * 1000) / this.config.rateBitsPerSec;
    this.wire.nextFreeMs = end;
    return end;
  }
}

registerStage<RateConfig & StageConfig>({
  type: 'rate',
  summary: 'link rate in bit/s, a shaper with a bounded queue (shared by all connections of a direction)',
  schema: rateSchema as unknown as z.ZodType<RateConfig & StageConfig>,
  create: (config, ctx) => new RateStage(config, ctx),
});
