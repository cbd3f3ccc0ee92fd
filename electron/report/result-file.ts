/**
 * Read a saved `longhaul.result/1` document (`longhaul report --from FILE`),
 * checked against the contract so a wrong or damaged file gives one clear
 * error (LH_ERR_BAD_RESULT) instead of a report full of NaN. Extra fields are
 * allowed: later versions may add measurements (RTT, cwnd) to the same schema.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { RESULT_SCHEMA, type LonghaulResult } from '../contract/result.js';
import { LonghaulError } from '../util/errors.js';
import { fileError } from './report-file.js';

const count = z.number().int().min(0);
const secs = z.number().nullable();
const side = z.enum(['controller', 'responder']);
const errorInfo = z.object({ code: z.string(), message: z.string() });
const endView = z.object({ side, bytes: count, completions: count, firstT: secs, lastT: secs, seconds: secs, error: errorInfo.nullable(), io: z.enum(['native', 'node']).optional() });
const total = z.object({
  bytes: count, sentBytes: count, seconds: secs, bitsPerSecond: secs, streamSumBitsPerSecond: secs, completions: count,
});
const peer = z.object({ hostname: z.string(), address: z.string(), software: z.string() });

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
    streams: z.number().int().min(1), bufferBytes: count, windowBytes: count.nullable(), bytes: count.nullable(),
    seconds: secs, direction: z.enum(['forward', 'reverse', 'bidir']), intervalSeconds: z.number().positive(),
    mssBytes: count.nullable().optional(),
  }),
  window: z.object({ requestedBytes: count.nullable(), applied: z.boolean(), note: z.string() }),
  streams: z.array(z.object({
    id: count, sender: side, bytes: count, seconds: secs, completions: count, bitsPerSecond: secs,
    send: endView.nullable(), receive: endView.nullable(),
  })),
  intervals: z.array(z.object({
    index: z.number().int().min(1), t: z.number(), seconds: z.number().min(0), controllerT: secs, responderT: secs,
    streams: z.array(z.object({ id: count, sentBytes: count.nullable(), receivedBytes: count.nullable(), receiveCompletions: count.nullable() })),
    sentBytes: count.nullable(), receivedBytes: count.nullable(),
  })),
  total,
  directions: z.object({ controllerToResponder: total.optional(), responderToController: total.optional() }),
  partial: z.boolean(),
  partialReason: z.string().nullable(),
  errors: z.array(errorInfo),
});

/** Validate a parsed JSON value as a result; `source` names it in the error. */
export function parseResult(value: unknown, source: string): LonghaulResult {
  const r = resultSchema.safeParse(value);
  // The schema checks what every report relies on; the rest (TCP_INFO series, socket reports, the link,
  // the diagnosis, the MSS) passes through as written: zod's parse output would strip it.
  if (r.success) return value as LonghaulResult;
  const issue = r.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  const schema = (value as { schema?: unknown } | null)?.schema;
  const hint = schema !== RESULT_SCHEMA ? ` (expected "schema": "${RESULT_SCHEMA}", found ${JSON.stringify(schema) ?? 'none'})` : '';
  throw new LonghaulError('LH_ERR_BAD_RESULT', `${source} is not a valid ${RESULT_SCHEMA} result${where}: ${issue?.message ?? 'invalid'}${hint}`);
}

/** Read and validate a result file. Throws LonghaulError (LH_ERR_IO, LH_ERR_BAD_RESULT). */
export async function readResultFile(path: string): Promise<LonghaulResult> {
  return parseResult(await readJsonFile(path), path);
}

/** A saved JSON document, parsed but not yet checked. Throws LonghaulError (LH_ERR_IO, LH_ERR_BAD_RESULT). */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw fileError(path, err, 'read');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new LonghaulError('LH_ERR_BAD_RESULT', `${path} is not JSON (${(err as Error).message}); give a file written by --json`);
  }
  return value;
}
