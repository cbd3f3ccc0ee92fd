/**
 * `delay`: one-way propagation delay, with optional jitter that never
 * reorders bytes (a chunk never leaves before the one ahead of it).
 *
 *   { "type": "delay", "delayMs": 650, "jitterMs": 5 }
 *
 * The delay counts from the ideal time the chunk left the stage before (the
 * time it spent queued upstream is not added twice; timer lateness is not
 * added at all). Bytes "on the wire" wait here, so the queue limit is the most
 * bytes the emulated path can hold in propagation (default 32 MiB).
 */
import { z } from 'zod';
import { LINK_MAX_DELAY_MS, LINK_MAX_JITTER_MS } from '../../contract/link-limits.js';
import { formatMs } from '../../contract/units.js';
import { registerStage } from '../registry.js';
import { type StageContext, type QueueStage } from '../stage.js';
import { seededRandom } from '../../contract/seeded-random.js';

const DEFAULT_DELAY_QUEUE_BYTES = 32 * 1024 * 1024;

const delaySchema = z
  .object({
    type: z.literal('delay'),
    delayMs: z
      .number()
      .min(0, 'delayMs cannot be negative')
      .max(LINK_MAX_DELAY_MS, `delayMs above ${LINK_MAX_DELAY_MS / 1000} s`),
    jitterMs: z.number().min(0, 'jitterMs cannot be negative').max(LINK_MAX_JITTER_MS).default(0),
    queueBytes: z.number().int().positive().default(DEFAULT_DELAY_QUEUE_BYTES),
    seed: z.number().int().optional(),
  })
  .strict();

export type DelayConfig = z.infer<typeof delaySchema>;

class DelayStage implements QueueStage {
  readonly type = 'delay';
  readonly kind = 'queue';
  readonly queueLimitBytes: number;
  private lastDepartMs = -Infinity;
  private readonly random: () => number;

  constructor(
    readonly config: DelayConfig,
    ctx: StageContext,
  ) {
    this.queueLimitBytes = config.queueBytes;
    this.random = config.seed === undefined ? () => ctx.random() : seededRandom(config.seed);
  }

  /** Base delay ± jitter (uniform), clamped so it is never negative and never overtakes. */
  departAt(_bytes: number, readyAtMs: number): number {
    const { delayMs, jitterMs } = this.config;
    const jitter = jitterMs > 0 ? (this.random() * 2 - 1) * jitterMs : 0;
    const at = Math.max(readyAtMs + Math.max(0, delayMs + jitter), this.lastDepartMs);
    this.lastDepartMs = at;
    return at;
  }
}

registerStage({
  type: 'delay',
  summary: 'one-way delay in ms, optional jitter (never reorders bytes)',
  schema: delaySchema,
  describe: (c) => `delay ${formatMs(c.delayMs)}${c.jitterMs > 0 ? ` ± ${formatMs(c.jitterMs)} jitter (never reorders)` : ''}`,
  create: (config, ctx) => new DelayStage(config, ctx),
  link: (c) => ({ oneWayDelayMs: c.delayMs }),
});
