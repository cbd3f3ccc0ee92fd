/**
 * Every request that reaches the host is checked here first: in browser mode
 * it arrives over a WebSocket, and even from our own window the host trusts
 * nothing it did not validate. A bad request is `LH_ERR_BAD_ARGUMENT`.
 */
import { z } from 'zod';
import type { InvokeName, Invokes } from '../contract/api.js';
import { EXPORT_FORMATS } from '../contract/api.js';
import { runParamsSchema } from '../engine/params.js';
import { linkSettingsSchema } from '../proxy/link-settings.js';
import { ArgumentError } from '../util/errors.js';

const host = z.string().trim().min(1, 'the address is empty').max(255).regex(/^[A-Za-z0-9.:_%-]+$/, 'the address may hold letters, digits, ".", ":", "-" only');
const port = z.number().int().min(1).max(65535);
const listenPort = z.number().int().min(0).max(65535);
const id = z.string().regex(/^[0-9a-f]{8,64}$/, 'not a result id');

const link = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('direct') }).strict(),
  z.object({ kind: z.literal('proxy'), preset: z.string().max(64).nullable(), settings: linkSettingsSchema }).strict(),
]);
const format = z.enum(EXPORT_FORMATS as [string, ...string[]]) as z.ZodType<Invokes['exportResult']['req']['format']>;

const SCHEMAS: { [K in InvokeName]: z.ZodType<Invokes[K]['req']> } = {
  systemInfo: z.null(),
  checkPeer: z.object({ host, port }).strict(),
  startRun: z.object({ host, port, params: runParamsSchema, link }).strict(),
  stopRun: z.object({ runId: z.string().max(64) }).strict(),
  startResponder: z.object({ port: listenPort, bind: host.nullable() }).strict(),
  stopResponder: z.null(),
  listHistory: z.null(),
  loadResult: z.object({ id }).strict(),
  exportResult: z.object({ id, format }).strict(),
  reportText: z.object({ id, format }).strict(),
  linkPresets: z.null(),
  emulatorCapacity: z.object({ measure: z.boolean() }).strict(),
  setBypass: z.object({ runId: z.string().max(64), bypass: z.boolean() }).strict(),
  discoverResponders: z.object({ seconds: z.number().min(0.5).max(10) }).strict(),
  pairPeer: z.object({ host, port, code: z.string().trim().min(1).max(40) }).strict(),
};

/** Parse a request for `name`; throws ArgumentError naming the first bad field. */
export function parseRequest<K extends InvokeName>(name: K, req: unknown): Invokes[K]['req'] {
  const r = SCHEMAS[name].safeParse(req === undefined ? null : req);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new ArgumentError(`${name}: ${where}${issue?.message ?? 'invalid request'}`);
  }
  return r.data as Invokes[K]['req'];
}

/** True when `name` is one of the contract's actions (for hosts receiving untyped names). */
export function isInvokeName(name: unknown): name is InvokeName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(SCHEMAS, name);
}
