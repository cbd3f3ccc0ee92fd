/**
 * Stage registry, toxiproxy style: each stage file registers its name, its
 * zod schema and a factory. Chains are built from plain JSON, validated here,
 * so a bad config is rejected before any byte moves.
 */
import { z } from 'zod';
import { ArgumentError } from '../util/errors.js';
import type { Stage, StageConfig, StageContext } from './stage.js';

export interface StageDefinition<C extends StageConfig = StageConfig> {
  type: string;
  /** One line for help texts and the UI. */
  summary: string;
  schema: z.ZodType<C>;
  create(config: C, ctx: StageContext): Stage;
}

const definitions = new Map<string, StageDefinition>();

/** Register a stage type. Registering a name twice is a programming error. */
export function registerStage<C extends StageConfig>(def: StageDefinition<C>): void {
  if (definitions.has(def.type)) throw new Error(`stage type "${def.type}" registered twice`);
  definitions.set(def.type, def as unknown as StageDefinition);
}

/** Registered stage types, in registration order. */
export function stageTypes(): string[] {
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
