/**
 * The one schema of a sweep plan, from the one set of limits (SWEEP_LIMITS in
 * contract/sweep-app.ts): `longhaul sweep` checks its plan with it before the
 * first run, the app's host checks a `sweepStart` request with it, so a plan
 * one door accepts the other accepts too.
 *
 * Two readings of the same rules: a new plan is checked strictly (its base is
 * a run's parameters as a run would check them, its link presets exist, no
 * unknown fields); a saved plan, read back for a resume, is checked leniently
 * as a saved result is (a later version may add fields; a preset may have
 * been renamed since, which the run then reports).
 */
import { z } from 'zod';
import { DIRECTIONS } from '../contract/direction.js';
import { SWEEP_LIMITS } from '../contract/sweep-app.js';
import type { SweepPlan } from '../contract/sweep.js';
import { runParamsSchema } from '../protocol/run-params.js';
import { MAX_BUFFER_BYTES, MAX_MSS_BYTES, MAX_STREAMS, MAX_WINDOW_BYTES, MIN_MSS_BYTES } from '../contract/limits.js';
import { hostSchema, portSchema } from '../protocol/address-schema.js';
import { findPreset } from '../proxy/presets.js';
import { resultSchema } from '../report/result-file.js';

const { maxValues, maxDimensions, maxCells, maxRepeat, maxPauseSeconds, minSeconds } = SWEEP_LIMITS;

function planSchema(strict: boolean) {
  const obj = <T extends z.ZodRawShape>(shape: T) => (strict ? z.strictObject(shape) : z.object(shape));
  const values = <T extends z.ZodType>(v: T) => z.array(v).min(1).max(maxValues);
  const preset = strict
    ? z
        .string()
        .max(64)
        .refine((n) => findPreset(n) !== undefined, 'not a link preset')
    : z.string().min(1);
  const dimension = z.discriminatedUnion('name', [
    obj({ name: z.literal('windowBytes'), values: values(z.number().int().min(1).max(MAX_WINDOW_BYTES).nullable()) }),
    obj({ name: z.literal('bufferBytes'), values: values(z.number().int().min(1).max(MAX_BUFFER_BYTES)) }),
    obj({ name: z.literal('streams'), values: values(z.number().int().min(1).max(MAX_STREAMS)) }),
    obj({ name: z.literal('mssBytes'), values: values(z.number().int().min(MIN_MSS_BYTES).max(MAX_MSS_BYTES).nullable()) }),
    obj({ name: z.literal('direction'), values: values(z.enum(DIRECTIONS)) }),
    obj({ name: z.literal('link'), values: values(preset.nullable()) }),
    obj({ name: z.literal('path'), values: values(z.enum(['direct', 'relay'])) }),
  ]);
  return (
    obj({
      target: z.discriminatedUnion('kind', [
        obj({ kind: z.literal('peer'), host: strict ? hostSchema : z.string().min(1), port: portSchema }),
        obj({ kind: z.literal('loopback') }),
      ]),
      base: strict ? runParamsSchema : resultSchema.shape.params,
      dimensions: z.array(dimension).max(maxDimensions),
      repeat: z.number().int().min(1).max(maxRepeat),
      pauseSeconds: z.number().min(0).max(maxPauseSeconds),
      order: z.enum(['shuffled', 'sequential']),
      seed: z
        .number()
        .int()
        .min(0)
        .max(2 ** 32 - 1),
      capacity: z.boolean().optional(),
    })
      .refine((p) => new Set(p.dimensions.map((d) => d.name)).size === p.dimensions.length, 'a setting is swept twice')
      .refine((p) => p.base.seconds === null || p.base.seconds >= minSeconds, `runs of at least ${minSeconds} s`)
      .refine((p) => p.dimensions.reduce((n, d) => n * d.values.length, 1) <= maxCells, `at most ${maxCells} cells (the values of every setting multiplied)`)
      // The emulator runs on this PC in front of its own responder; a partner's sweep has no preset to apply.
      .refine(
        (p) => p.target.kind === 'loopback' || !p.dimensions.some((d) => d.name === 'link' && d.values.some((v) => v !== null)),
        'link presets are for sweeps on this PC',
      )
  );
}

/** A new plan, from the CLI's flags or the Sweep screen: checked strictly. */
export const newSweepPlanSchema = planSchema(true) satisfies z.ZodType<SweepPlan>;

/** A plan read back from a saved `longhaul.sweep/1` file: the same limits, extra fields allowed. */
export const savedSweepPlanSchema = planSchema(false);
