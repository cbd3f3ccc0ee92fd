/**
 * `loss`: a MODEL of packet loss. A user-space relay cannot drop a packet of
 * the real TCP connections (each side talks to the proxy over loopback, where
 * nothing is lost), so a loss is modelled by its effect on a TCP sender with
 * SACK (what Linux does by default):
 *
 * - the chunk holding the "lost" segment reaches the destination one emulated
 *   round trip late (its fast retransmission), and, bytes being in order, so
 *   does everything behind it (head-of-line blocking at the receiver). The
 *   link itself does not stall: the chunks behind cross it on time and are
 *   acknowledged on time (SACK), so the sender keeps sending;
 * - a halving of the in-flight cap when the sender would learn of the loss:
 *   one round trip after the lost segment left (when the acknowledgements of
 *   the segments behind it arrive). Losses among the segments sent before
 *   then belong to the same recovery and halve once, as in TCP. For the round
 *   trip after that (fast recovery) the cap does not grow; then it grows by
 *   one MSS per round trip (Reno's congestion avoidance). Halving at the
 *   lost segment's departure instead, and growing during recovery, made the
 *   proxy run 1.10-1.18 × kernel Reno at 100 ms with the same periodic losses.
 *
 * Not modelled: the retransmitted segment's own link time, timeouts (RTO)
 * when a retransmission or too many segments of one window are lost, and
 * CUBIC's or BBR's growth.
 *
 *   { "type": "loss", "lossRatio": 0.001, "mssBytes": 1448, "seed": 42 }
 *
 * `lossRatio` is per segment of `mssBytes`, counted on the bytes, not on the
 * chunks: the stream is cut into segments of `mssBytes` and each segment is
 * drawn once, in the chunk where it starts. (Drawing once per chunk made every
 * small chunk a whole segment: in a window-limited flow each ack admits a full
 * chunk and a sliver of growth, so a 1 % link drew 1.9 times per segment,
 * lost 2.6 % of them in one run and ran at 0.73 of Reno's rate.)
 */
import { z } from 'zod';
import { LINK_MAX_LOSS_RATIO, LINK_MAX_MSS_BYTES, LINK_MIN_MSS_BYTES } from '../../contract/link-limits.js';
import { registerStage } from '../registry.js';
import { EMULATION_NOTE, type FlightView, type Stage, type StageContext, type QueueGateStage } from '../stage.js';
import { seededRandom } from '../../contract/seeded-random.js';
import { DEFAULT_MSS_BYTES } from '../../contract/wire.js';

const lossSchema = z
  .object({
    type: z.literal('loss'),
    lossRatio: z
      .number()
      .min(0, 'lossRatio cannot be negative')
      .max(LINK_MAX_LOSS_RATIO, `lossRatio above ${LINK_MAX_LOSS_RATIO * 100} % is not a link`),
    mssBytes: z.number().int().min(LINK_MIN_MSS_BYTES).max(LINK_MAX_MSS_BYTES).default(DEFAULT_MSS_BYTES),
    queueBytes: z
      .number()
      .int()
      .positive()
      .default(32 * 1024 * 1024),
    seed: z.number().int().optional(),
    /**
     * `random` (default): each segment is lost with probability `lossRatio`. `periodic`: exactly
     * every round(1 / lossRatio)-th segment is lost — the same sequence every run, which is what
     * `iptables -m statistic --mode nth` does on the kernel WAN harness (bench:link compares the
     * two paths on it: at a 1.3 s RTT a random 1 % is a handful of losses per minute, and where
     * they fall decides the run).
     */
    pattern: z.enum(['random', 'periodic']).default('random'),
  })
  .strict();

export type LossConfig = z.infer<typeof lossSchema>;

/** What the loss model did on one direction of a link, all its connections together. */
export interface LossStats {
  /** Segments (of `mssBytes`) that passed the loss stage. */
  segments: number;
  /** Chunks held as lost (a chunk with several lost segments counts once). */
  losses: number;
  /** Halvings of the in-flight cap (recovery episodes: losses of one round trip halve once). */
  halvings: number;
}

const STATS_KEY = 'loss.stats';

/** The loss counters of one direction (from the stage context's shared map); null when no loss stage ran. */
export function lossStatsOf(shared: Map<string, unknown>): LossStats | null {
  const s = shared.get(STATS_KEY) as LossStats | undefined;
  return s ? { ...s } : null;
}

export class LossStage implements QueueGateStage {
  readonly type = 'loss';
  readonly kind = 'queue+gate';
  readonly queueLimitBytes: number;
  /** One segment per chunk: only the lost segment is held; the ones beside it are acknowledged on time (SACK). */
  readonly chunkBytes: number;
  /** Modelled losses so far (for tests and reports). */
  losses = 0;
  private capAfterLossBytes = Infinity;
  private lastDepartMs = -Infinity;
  /** Departure of the first lost segment of the current recovery episode. */
  private episodeStartMs = -Infinity;
  /** When the sender learns of that loss (an RTT after it left); null: nothing pending. */
  private detectAtMs: number | null = null;
  /** End of fast recovery: the cap does not grow on acks before this. */
  private recoveryUntilMs = -Infinity;
  /** Bytes of the current (partly passed) segment already seen, 0 ≤ … < mssBytes. */
  private segmentOffset = 0;
  /** Segments started so far (the periodic pattern counts them). */
  private segmentsSeen = 0;
  /** Hold for the chunk departAt just scheduled (0: not lost). */
  private holdMs = 0;
  private readonly random: () => number;
  private readonly stats: LossStats;

  constructor(
    readonly config: LossConfig,
    private readonly ctx: StageContext,
  ) {
    this.queueLimitBytes = config.queueBytes;
    this.chunkBytes = config.mssBytes;
    let stats = ctx.shared.get(STATS_KEY) as LossStats | undefined;
    if (!stats) {
      stats = { segments: 0, losses: 0, halvings: 0 };
      ctx.shared.set(STATS_KEY, stats);
    }
    this.stats = stats;
    this.random = config.seed === undefined ? () => ctx.random() : seededRandom(config.seed);
  }

  departAt(bytes: number, readyAtMs: number): number {
    const segments = this.segmentsStartingIn(bytes);
    this.holdMs = 0;
    this.stats.segments += segments;
    if (segments > 0 && this.config.lossRatio > 0 && this.lost(segments)) {
      this.losses++;
      this.stats.losses++;
      const rttMs = this.ctx.rttMs();
      this.holdMs = rttMs;
      if (readyAtMs - this.episodeStartMs >= rttMs) {
        // A detection still pending (no ack came to carry it) is overdue: take it now.
        if (this.detectAtMs !== null) this.detect(readyAtMs);
        this.episodeStartMs = readyAtMs;
        this.detectAtMs = readyAtMs + rttMs;
      }
    }
    const at = Math.max(readyAtMs, this.lastDepartMs);
    this.lastDepartMs = at;
    return at;
  }

  /** Is one of the next `segments` segments lost? (It counts as one loss: one chunk is held.) */
  private lost(segments: number): boolean {
    const before = this.segmentsSeen;
    this.segmentsSeen += segments;
    if (this.config.pattern === 'periodic') {
      const every = Math.max(1, Math.round(1 / this.config.lossRatio));
      return Math.floor(this.segmentsSeen / every) > Math.floor(before / every);
    }
    return this.random() < 1 - (1 - this.config.lossRatio) ** segments;
  }

  /** How many segments start in the next `bytes` bytes of the stream (and move past them). */
  private segmentsStartingIn(bytes: number): number {
    const mss = this.config.mssBytes;
    const starts = Math.ceil((this.segmentOffset + bytes) / mss) - Math.ceil(this.segmentOffset / mss);
    this.segmentOffset = (this.segmentOffset + bytes) % mss;
    return starts;
  }

  takeHoldMs(): number {
    const h = this.holdMs;
    this.holdMs = 0;
    return h;
  }

  capBytes(): number {
    return this.capAfterLossBytes;
  }

  onLoss(flight: FlightView): void {
    const base = Math.min(this.capAfterLossBytes, flight.inFlightBytes);
    this.capAfterLossBytes = Math.max(2 * this.config.mssBytes, base / 2);
  }

  onAck(bytes: number, _flight: FlightView, atMs: number): void {
    if (this.detectAtMs !== null && atMs >= this.detectAtMs) {
      this.detect(atMs);
      return;
    }
    if (atMs < this.recoveryUntilMs) return;
    if (Number.isFinite(this.capAfterLossBytes)) this.capAfterLossBytes += (this.config.mssBytes * bytes) / this.capAfterLossBytes;
  }

  /** The sender learns of the loss: halve (every gate, through the pipe), then a round trip of recovery. */
  private detect(atMs: number): void {
    this.detectAtMs = null;
    this.recoveryUntilMs = atMs + this.ctx.rttMs();
    this.stats.halvings++;
    this.ctx.signalLoss();
  }

  inherit(previous: Stage): void {
    if (previous instanceof LossStage) {
      this.capAfterLossBytes = previous.capAfterLossBytes;
      this.episodeStartMs = previous.episodeStartMs;
      this.detectAtMs = previous.detectAtMs;
      this.recoveryUntilMs = previous.recoveryUntilMs;
      this.losses = previous.losses;
      this.segmentOffset = previous.segmentOffset;
      this.segmentsSeen = previous.segmentsSeen;
    }
  }
}

registerStage({
  type: 'loss',
  summary:
    'MODELLED loss: the chunk and those behind it reach the destination one round trip late (SACK recovery, the link keeps going), and the in-flight cap halves (a relay cannot drop packets)',
  schema: lossSchema,
  describe: (c) =>
    `loss ${(c.lossRatio * 100).toFixed(3).replace(/\.?0+$/, '')} % of segments${c.pattern === 'periodic' ? ', periodic' : ''} (MODELLED: delivered one RTT late + cap halved)`,
  create: (config, ctx) => new LossStage(config, ctx),
  caveat: EMULATION_NOTE,
});
