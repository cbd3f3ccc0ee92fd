/**
 * `rate`: a shaper, not a policer. Chunks are serialized one after another at
 * the link rate; a bounded queue in front of the "wire" holds what waits, and
 * when it is full the stage upstream (ultimately the sender's socket) is held.
 *
 *   { "type": "rate", "rateBitsPerSec": 4000000, "queueBytes": 65536 }
 *
 * All connections of one direction share one serialization clock: four
 * streams over a 4 Mbit/s link get 4 Mbit/s together, as on the real link.
 *
 * The rate is the link's (wire) rate, as a real link, tbf and the kernel WAN
 * harness count it: every `mssBytes` of payload also carries
 * `wireOverheadBytes` of headers (66 = Ethernet 14 + IPv4 20 + TCP with
 * timestamps 32), so a 4 Mbit/s link carries 4 × 1448/1514 ≈ 3.83 Mbit/s of
 * TCP payload. `"wireOverheadBytes": 0` makes it a payload rate.
 */
import { z } from 'zod';
import { LINK_MAX_MSS_BYTES, LINK_MAX_RATE_BITS_PER_SEC, LINK_MIN_MSS_BYTES } from '../../contract/link-limits.js';
import { formatRate } from '../../contract/units.js';
import { registerStage } from '../registry.js';
import { DEFAULT_MSS_BYTES, WIRE_OVERHEAD_BYTES, payloadFraction } from '../../contract/wire.js';
import type { StageContext, QueueStage } from '../stage.js';

const MIN_QUEUE_BYTES = 64 * 1024;
/** Chunks of about 2 ms of serialization, at least one segment: smooth pacing, few timers. */
const CHUNK_MS = 2;
const MSS_BYTES = DEFAULT_MSS_BYTES;
export { payloadFraction };

const rateSchema = z
  .object({
    type: z.literal('rate'),
    rateBitsPerSec: z.number().positive('rateBitsPerSec must be above 0 (leave the stage out for no limit)').max(LINK_MAX_RATE_BITS_PER_SEC),
    /** Default: 100 ms of the rate, at least 64 KiB. */
    queueBytes: z.number().int().positive().optional(),
    /** Header bytes per segment of `mssBytes` payload that the wire also carries (0: the rate counts payload only). */
    wireOverheadBytes: z.number().int().min(0).max(1000).default(WIRE_OVERHEAD_BYTES),
    mssBytes: z.number().int().min(LINK_MIN_MSS_BYTES).max(LINK_MAX_MSS_BYTES).default(MSS_BYTES),
  })
  .strict();

export type RateConfig = z.infer<typeof rateSchema>;

/** The shared clock: when the emulated wire is next free, ms. */
interface WireClock {
  nextFreeMs: number;
}

/** The direction's one wire clock, shared by every connection through the link (and the UDP relays: proxy/udp/). */
export function wireClock(shared: Map<string, unknown>): WireClock {
  let wire = shared.get('rate.wire') as WireClock | undefined;
  if (!wire) {
    wire = { nextFreeMs: -Infinity };
    shared.set('rate.wire', wire);
  }
  return wire;
}

/** Bytes that may wait for the wire: the stage's `queueBytes`, default 100 ms of the rate, at least 64 KiB. */
export function rateQueueBytes(c: Pick<RateConfig, 'rateBitsPerSec' | 'queueBytes'>): number {
  return c.queueBytes ?? Math.max(MIN_QUEUE_BYTES, Math.round((c.rateBitsPerSec / 8 / 1000) * 100));
}

class RateStage implements QueueStage {
  readonly type = 'rate';
  readonly kind = 'queue';
  readonly queueLimitBytes: number;
  readonly chunkBytes: number;
  private readonly wire: WireClock;
  /** Wire bytes per payload byte. */
  private readonly wirePerPayload: number;

  constructor(
    readonly config: RateConfig,
    ctx: StageContext,
  ) {
    const bytesPerMs = config.rateBitsPerSec / 8 / 1000;
    this.queueLimitBytes = rateQueueBytes(config);
    this.chunkBytes = Math.max(MSS_BYTES, Math.round(bytesPerMs * CHUNK_MS));
    this.wirePerPayload = 1 / payloadFraction(config.mssBytes, config.wireOverheadBytes);
    this.wire = wireClock(ctx.shared);
  }

  /** The chunk's last bit leaves when the wire has serialized everything before it, then it. */
  departAt(bytes: number, readyAtMs: number): number {
    const start = Math.max(readyAtMs, this.wire.nextFreeMs);
    const end = start + (bytes * this.wirePerPayload * 8 * 1000) / this.config.rateBitsPerSec;
    this.wire.nextFreeMs = end;
    return end;
  }
}

registerStage({
  type: 'rate',
  summary: 'link (wire) rate in bit/s, headers counted, a shaper with a bounded queue (shared by all connections of a direction)',
  schema: rateSchema,
  describe: (c) => `rate ${formatRate(c.rateBitsPerSec)} (shaper, bounded queue)`,
  create: (config, ctx) => new RateStage(config, ctx),
  link: (c) => ({ rateBitsPerSec: c.rateBitsPerSec }),
});
