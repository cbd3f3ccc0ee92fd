/**
 * The `longhaul.sweep/1` file on disk: a new one for a plan, written whole
 * and atomically after every run (temp + rename: a crash leaves the previous
 * version, never half of one), and read back for a resume, checked against
 * the contract so a wrong or damaged file gives one clear error
 * (LH_ERR_BAD_SWEEP) and is left untouched.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { SWEEP_SCHEMA, type SweepFile, type SweepPlan, type SweepRunRecord } from '../contract/sweep.js';
import { expandPlan, pendingRuns, summarizeCells } from '../contract/sweep-plan.js';
import { fileError, replaceFileAtomically } from '../report/report-file.js';
import { resultSchema } from '../report/result-file.js';
import { newSweepPlanSchema, savedSweepPlanSchema } from './sweep-plan-schema.js';
import { LonghaulError } from '../util/errors.js';
import { jsonDocument } from '../util/json-chunks.js';
import { readJsonFile } from '../util/json-file.js';
import { JsonSyntaxError } from '../util/json-pieces.js';
import { SOFTWARE } from '../util/version.js';

const settings = z.object({ params: resultSchema.shape.params, link: z.string().nullable(), path: z.enum(['direct', 'relay']) });
const runSchema = z.object({
  cell: z.number().int().min(0),
  repeat: z.number().int().min(0),
  sequence: z.number().int().min(0),
  settings,
  status: z.enum(['done', 'partial', 'failed']),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime(),
  bitsPerSecond: z.number().nullable(),
  streamSumBitsPerSecond: z.number().nullable(),
  verdicts: z.array(z.string()),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  result: resultSchema.nullable(),
});

const measuredDirection = z.enum(['controllerToResponder', 'responderToController']);
/** A path the sweep measured (plan.capacity): what the runner reads back to judge later runs with. */
const capacitySchema = z.object({
  link: z.string().nullable(),
  path: z.enum(['direct', 'relay']),
  direction: measuredDirection,
  sequence: z.number().int().min(0),
  info: z.object({ direction: measuredDirection, payloadBitsPerSecond: z.number().min(0).nullable(), wireBitsPerSecond: z.number().min(0).nullable() }),
});

const fileSchema = z.object({
  schema: z.literal(SWEEP_SCHEMA),
  id: z.string().min(1),
  title: z.string(),
  software: z.string(),
  startedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  complete: z.boolean(),
  plan: savedSweepPlanSchema,
  runs: z.array(runSchema),
  // Recomputed from the runs on every write; only its presence is checked.
  cells: z.array(z.unknown()),
  capacity: z.array(capacitySchema).optional(),
});

/** `peer 192.0.2.7:5211: windowBytes × bufferBytes`, for history lists. */
function sweepTitle(plan: SweepPlan): string {
  const where = plan.target.kind === 'loopback' ? 'loopback' : `${plan.target.host}:${plan.target.port}`;
  const dims = plan.dimensions.filter((d) => d.values.length > 1).map((d) => d.name);
  return `${where}: ${dims.length ? dims.join(' × ') : 'one cell'}`;
}

/** A new, empty sweep for a plan (validated: throws LH_ERR_BAD_SWEEP naming the problem). */
export function newSweepFile(plan: SweepPlan, now = new Date()): SweepFile {
  const r = newSweepPlanSchema.safeParse(plan);
  if (!r.success) throw badSweep('the sweep plan', r.error);
  const at = now.toISOString();
  return {
    schema: SWEEP_SCHEMA,
    id: randomUUID(),
    title: sweepTitle(plan),
    software: SOFTWARE,
    startedAt: at,
    updatedAt: at,
    complete: false,
    plan,
    runs: [],
    cells: summarizeCells(plan, []),
  };
}

/** The file with one more run, its summaries and `complete` brought up to date. */
export function withRun(file: SweepFile, run: SweepRunRecord, now = new Date()): SweepFile {
  const runs = [...file.runs, run];
  return { ...file, runs, updatedAt: now.toISOString(), cells: summarizeCells(file.plan, runs), complete: pendingRuns(file.plan, runs).length === 0 };
}

/**
 * Write the whole file atomically, in pieces: the embedded results together may be longer than the
 * longest string V8 builds. Throws LonghaulError (LH_ERR_IO).
 */
export function saveSweepFile(path: string, file: SweepFile): void {
  replaceFileAtomically(path, jsonDocument(file));
}

function badSweep(source: string, err: z.ZodError): LonghaulError {
  const issue = err.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return new LonghaulError('LH_ERR_BAD_SWEEP', `${source} is not a valid ${SWEEP_SCHEMA} sweep${where}: ${issue?.message ?? 'invalid'}`);
}

/** Validate a parsed value as a sweep; the value itself is returned (extra fields of embedded results kept). */
export function parseSweep(value: unknown, source: string): SweepFile {
  const r = fileSchema.safeParse(value);
  if (!r.success) throw badSweep(source, r.error);
  const file = value as SweepFile;
  const cells = expandPlan(file.plan).length;
  const stray = file.runs.find((run) => run.cell >= cells || run.repeat >= file.plan.repeat);
  if (stray)
    throw new LonghaulError(
      'LH_ERR_BAD_SWEEP',
      `${source}: run ${stray.sequence} is cell ${stray.cell} repeat ${stray.repeat}, outside the plan (${cells} cells × ${file.plan.repeat})`,
    );
  return { ...file, cells: summarizeCells(file.plan, file.runs) };
}

/** Read and validate a sweep file. Throws LonghaulError (LH_ERR_IO, LH_ERR_BAD_SWEEP); never changes the file. */
export async function readSweepFile(path: string): Promise<SweepFile> {
  let value: unknown;
  try {
    value = await readJsonFile(path);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw fileError(path, err, 'read');
    throw new LonghaulError('LH_ERR_BAD_SWEEP', `${path} is not JSON (${err.message}); give a file written by longhaul sweep --json`);
  }
  return parseSweep(value, path);
}
