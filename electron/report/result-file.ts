/**
 * Read and write saved `longhaul.result/1` documents (`--json`, History,
 * `longhaul report --from FILE`), checked against the contract so a wrong or
 * damaged file gives one clear error (LH_ERR_BAD_RESULT) instead of a report
 * full of NaN. Extra fields are allowed: later versions may add measurements
 * (RTT, cwnd) to the same schema.
 *
 * Both ways go in pieces (util/json-chunks.ts, util/json-pieces.ts): an
 * hour-long result can be larger than the longest string V8 builds. The
 * writer puts `streams` and `intervals`, the parts that grow with the run,
 * last, so a reader wanting the head (History's list) stops before them.
 */
import { z } from 'zod';
import { DIRECTIONS } from '../contract/direction.js';
import { SEND_PATHS } from '../contract/send-path.js';
import { RESULT_SCHEMA, type LonghaulResult } from '../contract/result.js';
import { LonghaulError } from '../util/errors.js';
import { neutralised } from '../util/printable.js';
import { jsonDocument } from '../util/json-chunks.js';
import { readJsonFile, UnreadableFileError, type JsonFileOptions } from '../util/json-file.js';
import { JsonSyntaxError } from '../util/json-pieces.js';
import { fileError, replaceFileAtomicallyAsync } from './report-file.js';
import { cpuUseSchema } from '../protocol/cpu-schema.js';
import { withSavedCases } from '../analysis/saved-cases.js';

const count = z.number().int().min(0);
const secs = z.number().nullable();
const side = z.enum(['controller', 'responder']);
const errorInfo = z.object({ code: z.string(), message: z.string() });
const endView = z.object({
  side,
  bytes: count,
  completions: count,
  firstT: secs,
  lastT: secs,
  seconds: secs,
  error: errorInfo.nullable(),
  io: z.enum(['native', 'node']).optional(),
  sendPath: z.enum(SEND_PATHS).optional(),
});
const total = z.object({
  bytes: count,
  sentBytes: count,
  seconds: secs,
  bitsPerSecond: secs,
  streamSumBitsPerSecond: secs,
  completions: count,
});
const peer = z.object({ hostname: z.string(), address: z.string(), software: z.string() });

/**
 * What the schema may check of a result: any part of it, each with the contract's own type, so a
 * field checked here with another type fails to compile. A field the contract types as a set of
 * words may be checked as any string: a later version may add a word (a pacing mechanism).
 */
type Checked<T> = T extends string ? string : T extends readonly (infer E)[] ? Checked<E>[] : T extends object ? { [K in keyof T]?: Checked<T[K]> } : T;

export const resultSchema = z.object({
  schema: z.literal(RESULT_SCHEMA),
  id: z.string(),
  software: z.string(),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime(),
  writtenBy: side,
  controller: peer,
  responder: peer,
  params: z.object({
    streams: z.number().int().min(1),
    bufferBytes: count,
    windowBytes: count.nullable(),
    bytes: count.nullable(),
    seconds: secs,
    direction: z.enum(DIRECTIONS),
    intervalSeconds: z.number().positive(),
    mssBytes: count.nullable().optional(),
    bitrateBitsPerSec: z.number().positive().nullable().optional(),
    congestionControl: z.string().nullable().optional(),
    omitSeconds: z.number().min(0).nullable().optional(),
    zeroCopy: z.literal(true).optional(),
    purpose: z.enum(['path-capacity']).optional(),
  }),
  window: z.object({ requestedBytes: count.nullable(), applied: z.boolean(), note: z.string() }),
  streams: z.array(
    z.object({
      id: count,
      sender: side,
      bytes: count,
      seconds: secs,
      completions: count,
      bitsPerSecond: secs,
      send: endView.nullable(),
      receive: endView.nullable(),
    }),
  ),
  intervals: z.array(
    z.object({
      index: z.number().int().min(1),
      t: z.number(),
      seconds: z.number().min(0),
      controllerT: secs,
      responderT: secs,
      streams: z.array(z.object({ id: count, sentBytes: count.nullable(), receivedBytes: count.nullable(), receiveCompletions: count.nullable() })),
      sentBytes: count.nullable(),
      receivedBytes: count.nullable(),
    }),
  ),
  total,
  directions: z.object({ controllerToResponder: total.optional(), responderToController: total.optional() }),
  partial: z.boolean(),
  partialReason: z.string().nullable(),
  errors: z.array(errorInfo),
  /** Checked: the summary block prints it. */
  cpu: z.object({ controller: cpuUseSchema.nullable(), responder: cpuUseSchema.nullable() }).optional(),
  /** Checked: the summary, the console log, the CSV and the HTML print it. */
  pacing: z.object({ note: z.string(), sides: z.array(z.object({ side, mechanism: z.string() })) }).optional(),
  /** Checked: History filters and prunes on it, and its name reaches the CSV and the terminal. */
  schedule: z.object({ name: z.string().min(1).max(64), slot: z.number().int().min(0) }).optional(),
}) satisfies z.ZodType<Checked<LonghaulResult>>;

/** Names of the fields a schema's output `S` has and the contract `T` does not, at any depth (never: none). */
type StrayKeys<S, T> = S extends readonly (infer E)[]
  ? T extends readonly (infer F)[]
    ? StrayKeys<E, F>
    : never
  : S extends object
    ? T extends object
      ? { [K in keyof S]-?: K extends keyof T ? StrayKeys<S[K], NonNullable<T[K]>> : K }[keyof S]
      : never
    : never;

/** Fields the schema checks that `LonghaulResult` does not name: a typo or a stale field. Must be `never` (test/report/result-file.test.ts). */
export type StrayResultFields = StrayKeys<z.output<typeof resultSchema>, LonghaulResult>;

/** Validate a parsed JSON value as a result; `source` names it in the error. */
export function parseResult(value: unknown, source: string): LonghaulResult {
  const r = resultSchema.safeParse(value);
  // The schema checks what every report relies on; the rest (TCP_INFO series, socket reports, the link,
  // the diagnosis, the MSS) passes through as written: zod's parse output would strip it.
  // A result saved before findings had cases gets them where today's rules reach its saved verdict.
  if (r.success) return withSavedCases(value as LonghaulResult);
  throw badResult(r.error, value, source);
}

/** The members of a result that grow with the run; written last, skipped by `readResultHead`. */
const GROWING = ['streams', 'intervals'] as const;

/** The result's pretty-printed JSON in pieces, the growing members last (same JSON value as JSON.stringify). */
export function resultChunks(result: LonghaulResult): Iterable<string> {
  const { streams, intervals, ...head } = result;
  return jsonDocument({ ...head, streams, intervals });
}

/** Write a result file: pieces through a stream into a temporary file, renamed over `file`. Throws LonghaulError. */
export async function writeResultFile(file: string, result: LonghaulResult): Promise<void> {
  await replaceFileAtomicallyAsync(file, resultChunks(result));
}

/**
 * A saved JSON document, read in pieces and parsed but not yet checked, every string in it made
 * printable (util/printable.ts: a file is not trusted to hold no escape sequence). Throws
 * LonghaulError (LH_ERR_IO, LH_ERR_BAD_RESULT).
 */
export async function readJson(path: string, opts: JsonFileOptions = {}): Promise<unknown> {
  try {
    return neutralised(await readJsonFile(path, opts));
  } catch (err) {
    if (err instanceof UnreadableFileError) throw new LonghaulError('LH_ERR_BAD_RESULT', `${err.message}; give a file written by --json`);
    if (err instanceof JsonSyntaxError) throw new LonghaulError('LH_ERR_BAD_RESULT', `${path} is not JSON (${err.message}); give a file written by --json`);
    throw fileError(path, err, 'read');
  }
}

/** Read and validate a result file, in pieces. Throws LonghaulError (LH_ERR_IO, LH_ERR_BAD_RESULT). */
export async function readResultFile(path: string, file: Pick<JsonFileOptions, 'noFollow'> = {}): Promise<LonghaulResult> {
  return parseResult(await readJson(path, file), path);
}

/** A result without its `streams` and `intervals`: what a listing shows. */
export type ResultHead = Omit<LonghaulResult, (typeof GROWING)[number]>;

const headSchema = resultSchema.omit({ streams: true, intervals: true });

/**
 * Read a result's head only, checked with the result schema less the growing members: files
 * written with those last are read up to them; older ones are read through, skipping them unparsed
 * (up to `file.maxBytes`).
 */
export async function readResultHead(path: string, file: Pick<JsonFileOptions, 'noFollow' | 'maxBytes'> = {}): Promise<ResultHead> {
  const value = await readJson(path, {
    ...file,
    onTopKey: (key, soFar) => (!(GROWING as readonly string[]).includes(key) ? 'read' : 'partial' in soFar && 'total' in soFar ? 'stop' : 'skip'),
  });
  const r = headSchema.safeParse(value);
  if (r.success) return value as ResultHead;
  throw badResult(r.error, value, path);
}

function badResult(error: z.ZodError, value: unknown, source: string): LonghaulError {
  const issue = error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  const schema = (value as { schema?: unknown } | null)?.schema;
  const hint = schema !== RESULT_SCHEMA ? ` (expected "schema": "${RESULT_SCHEMA}", found ${JSON.stringify(schema) ?? 'none'})` : '';
  return new LonghaulError('LH_ERR_BAD_RESULT', `${source} is not a valid ${RESULT_SCHEMA} result${where}: ${issue?.message ?? 'invalid'}${hint}`);
}
