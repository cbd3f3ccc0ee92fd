/**
 * Stage registry, toxiproxy style: each stage file registers its name, its
 * zod schema and a factory. Chains are built from plain JSON, validated here,
 * so a bad config is rejected before any byte moves.
 */
import { z } from 'zod';
import { ArgumentError } from '../util/errors.js';
import type { LinkShare, Stage, StageConfig, StageContext } from './stage.js';

interface StageDefinition<C extends StageConfig = StageConfig> {
  type: string;
  /** One line for help texts and the UI (`stageSummaries`). */
  summary: string;
  schema: z.ZodType<C>;
  /** The stage in words, every number with its unit: what `longhaul proxy` prints and results show. */
  describe(config: C): string;
  create(config: C, ctx: StageContext): Stage;
  /** Its share of the link's shape (rate, base delay); absent: none. */
  link?(config: C): LinkShare;
  /** A caveat printed once under any link that has this stage. */
  caveat?: string;
}

const definitions = new Map<string, StageDefinition>();

/**
 * Register a stage type; the config type is the schema's own output, so a stage file
 * writes no casts. Registering a name twice is a programming error.
 */
export function registerStage<S extends z.ZodType<{ type: string }>>(def: {
  type: string;
  summary: string;
  schema: S;
  describe(config: z.output<S>): string;
  create(config: z.output<S>, ctx: StageContext): Stage;
  link?(config: z.output<S>): LinkShare;
  caveat?: string;
}): void {
  if (definitions.has(def.type)) throw new Error(`stage type "${def.type}" registered twice`);
  // The one place configs meet their stage's own type: only configs this schema parsed reach
  // describe and create (parseStageConfig looks the schema up by the same `type`).
  definitions.set(def.type, {
    type: def.type,
    summary: def.summary,
    schema: def.schema as unknown as z.ZodType<StageConfig>,
    describe: (c) => def.describe(c as z.output<S>),
    create: (c, ctx) => def.create(c as z.output<S>, ctx),
    ...(def.link ? { link: (c: StageConfig) => def.link?.(c as z.output<S>) ?? {} } : {}),
    ...(def.caveat ? { caveat: def.caveat } : {}),
  });
}

/** A chain's shape from its stages' shares: the slowest rate (null: none) and the summed base delays, ms. */
export function linkShape(configs: readonly StageConfig[]): { rateBitsPerSec: number | null; oneWayDelayMs: number } {
  let rate: number | null = null;
  let delay = 0;
  for (const c of configs) {
    const share = definitions.get(c.type)?.link?.(c) ?? {};
    if (share.rateBitsPerSec !== undefined) rate = rate === null ? share.rateBitsPerSec : Math.min(rate, share.rateBitsPerSec);
    delay += share.oneWayDelayMs ?? 0;
  }
  return { rateBitsPerSec: rate, oneWayDelayMs: delay };
}

/** The caveats of the stage types among `configs`, each once. */
export function stageCaveats(configs: readonly StageConfig[]): string[] {
  return [...new Set(configs.flatMap((c) => definitions.get(c.type)?.caveat ?? []))];
}

/** Each registered type with its one-line summary, in registration order (help texts). */
export function stageSummaries(): { type: string; summary: string }[] {
  return [...definitions.values()].map((d) => ({ type: d.type, summary: d.summary }));
}

/** A stage's config in words (its definition's own `describe`); unknown types as their JSON. */
export function describeStageConfig(c: StageConfig): string {
  return definitions.get(c.type)?.describe(c) ?? JSON.stringify(c);
}

/** Registered stage types, in registration order. */
function stageTypes(): string[] {
  return [...definitions.keys()];
}

/** Validate one stage's JSON. Throws ArgumentError (LH_ERR_BAD_ARGUMENT) naming the stage and field. */
export function parseStageConfig(json: unknown, where = 'stage'): StageConfig {
  if (typeof json !== 'object' || json === null || typeof (json as { type?: unknown }).type !== 'string') {
    throw new ArgumentError(`${where}: expected an object with a "type" (one of ${stageTypes().join(', ')})`);
  }
  const type = (json as { type: string }).type;
  const def = definitions.get(type);
  if (!def) throw new ArgumentError(`${where}: unknown stage type "${type}" (known: ${stageTypes().join(', ')})`);
  const r = def.schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue?.path.length ? `.${issue.path.join('.')}` : '';
    throw new ArgumentError(`${where} (${type})${field}: ${issue?.message ?? 'invalid'}`);
  }
  return r.data;
}

/** Build a stage from validated JSON. */
export function createStage(config: StageConfig, ctx: StageContext): Stage {
  const def = definitions.get(config.type);
  if (!def) throw new ArgumentError(`unknown stage type "${config.type}"`);
  return def.create(config, ctx);
}
