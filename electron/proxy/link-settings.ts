/**
 * Link settings: the handful of numbers a user sets ("650 ms each way,
 * 4 Mbit/s, 64 KiB window, slow start, 0.1 % loss"), validated with zod and
 * compiled into the stage chains the proxy runs, the same chain each way.
 * A raw `{ up: [...], down: [...] }` chain is accepted too, for anything the
 * settings cannot say (asymmetric links, several delays…).
 */
import { z } from 'zod';
import {
  LINK_MAX_DELAY_MS,
  LINK_MAX_JITTER_MS,
  LINK_MAX_LOSS_RATIO,
  LINK_MAX_MSS_BYTES,
  LINK_MAX_RATE_BITS_PER_SEC,
  LINK_MIN_MSS_BYTES,
} from '../contract/link-limits.js';
import type { LinkSettingsInfo } from '../contract/link-info.js';
import { ArgumentError } from '../util/errors.js';
import type { LinkChains } from './proxy-connection.js';
import { parseStageConfig } from './registry.js';
import { type StageConfig } from './stage.js';
import { DEFAULT_MSS_BYTES } from '../contract/wire.js';
import './stages/index.js';
// After index.js, which registers the stages in the order help texts list them.
import { payloadFraction } from './stages/rate.js';

export const linkSettingsSchema = z
  .object({
    /** One-way delay, each direction, ms (the round trip is twice this). */
    delayMs: z
      .number()
      .min(0, 'delay cannot be negative')
      .max(LINK_MAX_DELAY_MS, `delay above ${LINK_MAX_DELAY_MS / 1000} s`),
    jitterMs: z.number().min(0, 'jitter cannot be negative').max(LINK_MAX_JITTER_MS).default(0),
    /** Link rate each way, bit/s; null = no rate limit. */
    rateBitsPerSec: z.number().positive('rate must be above 0 (leave it out for no limit)').max(LINK_MAX_RATE_BITS_PER_SEC).nullable(),
    /** The emulated TCP window (bytes in flight); null = not emulated. */
    windowBytes: z
      .number()
      .int()
      .min(1, 'window must be at least 1 byte')
      .max(1024 ** 3)
      .nullable(),
    slowstart: z.boolean(),
    /** Modelled loss per segment, 0-0.5. */
    lossRatio: z
      .number()
      .min(0, 'loss cannot be negative')
      .max(LINK_MAX_LOSS_RATIO, `loss above ${LINK_MAX_LOSS_RATIO * 100} %`),
    /** Which segments are lost: `random` (absent = random) or `periodic` (every round(1 / lossRatio)-th). */
    lossPattern: z.enum(['random', 'periodic']).optional(),
    mssBytes: z.number().int().min(LINK_MIN_MSS_BYTES).max(LINK_MAX_MSS_BYTES).default(DEFAULT_MSS_BYTES),
  })
  .strict() satisfies z.ZodType<LinkSettingsInfo>;

export type LinkSettings = z.infer<typeof linkSettingsSchema>;

/** No impairment at all: the proxy is then a plain relay (what flags override when no preset is named, and a sweep's `path: relay`). */
export const NO_LINK: LinkSettings = {
  delayMs: 0,
  jitterMs: 0,
  rateBitsPerSec: null,
  windowBytes: null,
  slowstart: false,
  lossRatio: 0,
  mssBytes: DEFAULT_MSS_BYTES,
};

/** What the proxy runs: the chains, and the settings they came from when they did. */
export interface LinkSpec {
  chains: LinkChains;
  settings: LinkSettings | null;
}

function zodMessage(err: z.ZodError): string {
  const issue = err.issues[0];
  return `${issue?.path.join('.') || 'link'}: ${issue?.message ?? 'invalid'}`;
}

/** Validate settings; throws ArgumentError (LH_ERR_BAD_ARGUMENT). */
export function parseLinkSettings(json: unknown): LinkSettings {
  const r = linkSettingsSchema.safeParse(json);
  if (!r.success) throw new ArgumentError(`invalid link settings: ${zodMessage(r.error)}`);
  return r.data;
}

/** One direction's chain for these settings: gates first, then loss, rate, delay. */
export function chainFromSettings(s: LinkSettings): StageConfig[] {
  const chain: StageConfig[] = [];
  if (s.windowBytes !== null) chain.push({ type: 'window', windowBytes: s.windowBytes });
  if (s.slowstart) chain.push({ type: 'slowstart', mssBytes: s.mssBytes, initialSegments: 10 });
  if (s.lossRatio > 0) chain.push({ type: 'loss', lossRatio: s.lossRatio, mssBytes: s.mssBytes, ...(s.lossPattern ? { pattern: s.lossPattern } : {}) });
  if (s.rateBitsPerSec !== null) chain.push({ type: 'rate', rateBitsPerSec: s.rateBitsPerSec, mssBytes: s.mssBytes });
  if (s.delayMs > 0 || s.jitterMs > 0) chain.push({ type: 'delay', delayMs: s.delayMs, jitterMs: s.jitterMs });
  return chain.map((c, i) => parseStageConfig(c, `stage ${i}`));
}

/** Validate a raw chain pair. Unknown stage types and bad fields are rejected with the stage's position. */
function parseLinkChains(json: unknown): LinkChains {
  if (typeof json !== 'object' || json === null) throw new ArgumentError('invalid link: expected { "up": [...], "down": [...] }');
  const out: Partial<LinkChains> = {};
  for (const dir of ['up', 'down'] as const) {
    const list = (json as Record<string, unknown>)[dir];
    if (!Array.isArray(list)) throw new ArgumentError(`invalid link: "${dir}" must be a list of stages`);
    out[dir] = list.map((c, i) => parseStageConfig(c, `${dir}[${i}]`));
  }
  const extra = Object.keys(json).filter((k) => k !== 'up' && k !== 'down');
  if (extra.length) throw new ArgumentError(`invalid link: unknown field "${extra[0]}"`);
  return out as LinkChains;
}

/** Either form → what the proxy runs. */
export function parseLinkSpec(json: unknown): LinkSpec {
  if (typeof json === 'object' && json !== null && ('up' in json || 'down' in json)) {
    return { chains: parseLinkChains(json), settings: null };
  }
  const settings = parseLinkSettings(json);
  const chain = chainFromSettings(settings);
  return { chains: { up: chain, down: chainFromSettings(settings) }, settings };
}

/**
 * The model's ceiling for one stream, bit/s of TCP payload (null when nothing limits):
 * min(rate × payload share, window / RTT). The rate is the wire rate (the rate stage counts
 * 66 header bytes per 1448-byte segment, as tbf and a real link do), so the payload share is
 * mss / (mss + 66) ≈ 0.956.
 */
export function modelCeilingBitsPerSec(s: Pick<LinkSettings, 'delayMs' | 'rateBitsPerSec' | 'windowBytes'> & { mssBytes?: number }): number | null {
  const rttSec = (2 * s.delayMs) / 1000;
  const byWindow = s.windowBytes !== null && rttSec > 0 ? (s.windowBytes * 8) / rttSec : Infinity;
  const byRate = s.rateBitsPerSec === null ? Infinity : s.rateBitsPerSec * payloadFraction(s.mssBytes ?? DEFAULT_MSS_BYTES);
  const ceiling = Math.min(byRate, byWindow);
  return Number.isFinite(ceiling) ? ceiling : null;
}
