/**
 * Read a saved `longhaul.group/1` document (a multi-peer run's `--json`, or a
 * group in the app's History), checked like a result file: what the group
 * reports rely on is validated (every peer's embedded result with the result
 * schema itself), the rest passes through as written. A wrong or damaged file
 * is one clear LH_ERR_BAD_RESULT, never a report full of NaN.
 */
import { z } from 'zod';
import { GROUP_SCHEMA, type LonghaulGroupResult } from '../contract/group.js';
import type { LonghaulResult } from '../contract/result.js';
import { SWEEP_SCHEMA } from '../contract/sweep.js';
import { LonghaulError } from '../util/errors.js';
import { parseResult, readJson, resultSchema } from './result-file.js';

const count = z.number().int().min(0);
const secs = z.number().nullable();
const sumOf = z.object({ added: count, partial: count, of: count });
const total = z.object({
  bytes: count,
  sentBytes: count,
  seconds: secs,
  bitsPerSecond: secs,
  peerSumBitsPerSecond: secs,
  streamSumBitsPerSecond: secs,
  peerSumOf: sumOf.optional(),
  streamSumOf: sumOf.optional(),
});
const role = z.enum(['sender', 'receiver', 'both']);

const groupSchema = z
  .object({
    schema: z.literal(GROUP_SCHEMA),
    id: z.string(),
    software: z.string(),
    startedAt: z.iso.datetime(),
    endedAt: z.iso.datetime(),
    controller: z.object({ hostname: z.string(), address: z.string(), software: z.string() }),
    params: resultSchema.shape.params,
    startSkewSeconds: secs,
    peers: z
      .array(
        z.object({
          index: count,
          address: z.string(),
          hostname: z.string(),
          software: z.string(),
          role,
          startOffsetSeconds: secs,
          result: resultSchema,
        }),
      )
      .min(1),
    intervals: z.array(
      z.object({
        index: z.number().int().min(1),
        t: z.number(),
        seconds: z.number().min(0),
        peerReceivedBytes: z.array(count.nullable()),
        receivedBytes: count.nullable(),
      }),
    ),
    total,
    directions: z.object({ controllerToResponder: total.optional(), responderToController: total.optional() }),
    partial: z.boolean(),
    partialReason: z.string().nullable(),
    errors: z.array(z.object({ code: z.string(), message: z.string(), peer: count.nullable() })),
    diagnosis: z.object({ sentence: z.string(), slowestPeer: count.nullable(), sharedSideSuspected: z.boolean().nullable() }),
  })
  .refine((g) => g.peers.every((p, i) => p.index === i), 'peers[].index must be 0, 1, 2, … in order');

/** Validate a parsed JSON value as a group document; `source` names it in the error. */
function parseGroup(value: unknown, source: string): LonghaulGroupResult {
  const r = groupSchema.safeParse(value);
  // As for a result: zod's output would strip what the schema does not name (TCP_INFO, the link, …), so the value itself is kept.
  if (r.success) return value as LonghaulGroupResult;
  const issue = r.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new LonghaulError('LH_ERR_BAD_RESULT', `${source} is not a valid ${GROUP_SCHEMA} document${where}: ${issue?.message ?? 'invalid'}`);
}

/** Read and validate a group file. Throws LonghaulError (LH_ERR_IO, LH_ERR_BAD_RESULT). */
export async function readGroupFile(path: string): Promise<LonghaulGroupResult> {
  return parseGroup(await readJson(path), path);
}

/** A saved document of either kind, told apart by its `schema` (what `longhaul report --from` takes). */
type SavedDocument =
  | { kind: 'result'; result: LonghaulResult }
  | { kind: 'group'; group: LonghaulGroupResult }
  /** A `longhaul.sweep/1` file, not yet checked: its schema lives a layer up (sweep/sweep-file.ts parseSweep). */
  | { kind: 'sweep'; value: unknown };

export async function readSavedDocument(path: string): Promise<SavedDocument> {
  const value = await readJson(path);
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (schema === GROUP_SCHEMA) return { kind: 'group', group: parseGroup(value, path) };
  if (schema === SWEEP_SCHEMA) return { kind: 'sweep', value };
  return { kind: 'result', result: parseResult(value, path) };
}
