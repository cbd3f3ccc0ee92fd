/**
 * Every request that reaches the host is checked here first: in browser mode
 * it arrives over a WebSocket, and even from our own window the host trusts
 * nothing it did not validate. A bad request is `LH_ERR_BAD_ARGUMENT`.
 */
import { z } from 'zod';
import { type InvokeName, type Invokes, EXPORT_FORMATS } from '../contract/api.js';
import { SWEEP_EXPORT_FORMATS } from '../contract/sweep-app.js';
import { RAMP_EXPORT_FORMATS } from '../contract/udp-ramp-app.js';
import { GROUP_EXPORT_FORMATS, MAX_GROUP_PEERS } from '../contract/group-app.js';
import { MAX_PATH_RATE_BITS_PER_SEC } from '../contract/limits.js';
import { historyFilterSchema, retentionSchema } from './history-retention.js';
import { runParamsSchema } from '../protocol/run-params.js';
import { UDP_REFUSALS } from '../contract/udp.js';
import { hostSchema, portSchema } from '../protocol/address-schema.js';
import { linkSettingsSchema } from '../proxy/link-settings.js';
import { newSweepPlanSchema } from '../sweep/sweep-plan-schema.js';
import { NAME_RULE, SCHEDULE_NAME } from '../schedule/plan-file.js';
import { metricsSettingSchema } from './metrics-endpoint.js';
import { ArgumentError } from '../util/errors.js';

const host = hostSchema;
const port = portSchema;
const listenPort = z.number().int().min(0).max(65535);
const id = z.string().regex(/^[0-9a-f]{8,64}$/, 'not a result id');

const link = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('direct') }).strict(),
  z.object({ kind: z.literal('proxy'), preset: z.string().max(64).nullable(), settings: linkSettingsSchema }).strict(),
]);
const scheduleName = z.string().regex(SCHEDULE_NAME, `a schedule's name: ${NAME_RULE}`);
const format = z.enum(EXPORT_FORMATS as [string, ...string[]]) as z.ZodType<Invokes['exportResult']['req']['format']>;

// The runner's UUIDs; nothing else reaches a path.
const sweepId = z.string().regex(/^[0-9a-f-]{8,64}$/, 'not a sweep id');
const sweepFormat = z.enum(SWEEP_EXPORT_FORMATS as [string, ...string[]]) as z.ZodType<Invokes['sweepExport']['req']['format']>;

// A group: two or more distinct partners (one would be a single run; the same one twice, two runs competing for one responder).
const groupPeers = z
  .array(z.object({ host, port }).strict())
  .min(2, 'a group run needs two or more partners')
  .max(MAX_GROUP_PEERS)
  .refine((ps) => new Set(ps.map((p) => `${p.host.toLowerCase()}:${p.port}`)).size === ps.length, 'a partner is listed twice');
// A ramp: UDP steps of a set time, one direction (contract/udp-ramp-app.ts; the CLI refuses the same: cli/ramp-options.ts).
const rampId = z.string().regex(/^[0-9a-f]{16}$/, 'not a ramp id');
const rampFormat = z.enum(RAMP_EXPORT_FORMATS as [string, ...string[]]) as z.ZodType<Invokes['rampExport']['req']['format']>;
const rampStart = z
  .object({
    target: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('peer'), host, port }).strict(),
      z.object({ kind: z.literal('iperf3'), host, port }).strict(),
    ]),
    params: runParamsSchema,
    lossThreshold: z.number().gt(0).max(0.5),
    link: z
      .object({ preset: z.string().max(64).nullable(), settings: linkSettingsSchema })
      .strict()
      .nullable(),
  })
  .strict()
  .refine((r) => r.params.protocol === 'udp', 'a ramp steps a UDP rate: the parameters must be UDP')
  .refine((r) => r.params.direction !== 'bidir', "a ramp finds one direction's rate: run it forward and in reverse")
  .refine((r) => r.params.seconds !== null && r.params.bytes === null, 'each step is a time (Duration), so the steps compare')
  .refine((r) => r.target.kind !== 'iperf3' || r.link === null, 'the link emulator is for Longhaul partners: a ramp against iperf3 -s goes direct');

const groupFormat = z.enum(GROUP_EXPORT_FORMATS as [string, ...string[]]) as z.ZodType<Invokes['exportGroup']['req']['format']>;

const SCHEMAS: { [K in InvokeName]: z.ZodType<Invokes[K]['req']> } = {
  systemInfo: z.null(),
  checkPeer: z.object({ host, port, partner: z.enum(['longhaul', 'iperf3']).optional() }).strict(),
  startRun: z
    .object({
      host,
      port,
      params: runParamsSchema,
      link,
      partner: z.enum(['longhaul', 'iperf3']).optional(),
      pathRateBitsPerSec: z.number().positive().max(MAX_PATH_RATE_BITS_PER_SEC).optional(),
      distanceMeters: z.number().positive().max(4e7).optional(),
      capacity: z.boolean().optional(),
    })
    .strict()
    // The emulator's hook speaks Longhaul's control channel (bypass, link report); an iperf3 server has none.
    .refine((r) => r.partner !== 'iperf3' || r.link.kind === 'direct', 'the link emulator is for Longhaul partners: a run against iperf3 -s goes direct')
    .refine((r) => r.partner !== 'iperf3' || !r.capacity, "measuring the path is Longhaul's own tuned run: an iperf3 server cannot take part in it")
    .refine((r) => r.params.protocol !== 'udp' || !r.capacity, UDP_REFUSALS.capacity),
  stopRun: z.object({ runId: z.string().max(64) }).strict(),
  runState: z.object({ runId: z.string().max(64) }).strict(),
  startResponder: z.object({ port: listenPort, bind: host.nullable() }).strict(),
  stopResponder: z.null(),
  responderStatus: z.null(),
  startIperf3Server: z.object({ port: listenPort }).strict(),
  stopIperf3Server: z.null(),
  listHistory: historyFilterSchema.nullable(),
  exportHistory: historyFilterSchema.nullable(),
  historyRetention: z.null(),
  setHistoryRetention: retentionSchema,
  previewHistoryRetention: retentionSchema,
  loadResult: z.object({ id }).strict(),
  exportResult: z.object({ id, format }).strict(),
  reportText: z.object({ id, format }).strict(),
  linkPresets: z.null(),
  emulatorCapacity: z.object({ measure: z.boolean() }).strict(),
  setBypass: z.object({ runId: z.string().max(64), bypass: z.boolean() }).strict(),
  discoverResponders: z.object({ seconds: z.number().min(0.5).max(10) }).strict(),
  pairPeer: z.object({ host, port, code: z.string().trim().min(1).max(40) }).strict(),
  listPeers: z.null(),
  forgetPeer: z.object({ fingerprint: z.string().regex(/^[0-9a-f]{64}$/, 'not a certificate fingerprint (64 lowercase hex digits)') }).strict(),
  sweepStart: z.object({ plan: newSweepPlanSchema }).strict(),
  sweepStop: z.object({ id: sweepId }).strict(),
  sweepResume: z.object({ id: sweepId }).strict(),
  sweepGet: z.object({ id: sweepId }).strict(),
  sweepExport: z.object({ id: sweepId, format: sweepFormat }).strict(),
  listSweeps: z.null(),
  rampStart,
  rampStop: z.object({ id: rampId }).strict(),
  rampGet: z.object({ id: rampId }).strict(),
  rampExport: z.object({ id: rampId, format: rampFormat }).strict(),
  listRamps: z.null(),
  startGroupRun: z.object({ peers: groupPeers, params: runParamsSchema }).strict(),
  listGroups: z.null(),
  loadGroup: z.object({ id }).strict(),
  exportGroup: z.object({ id, format: groupFormat }).strict(),
  groupReportText: z.object({ id, format: groupFormat }).strict(),
  listSchedules: z.null(),
  // The plan itself is checked by the plans' one rule (schedule/plan-file.ts), which names the field.
  saveSchedule: z.object({ plan: z.record(z.string(), z.unknown()), editing: scheduleName.nullable() }).strict(),
  pauseSchedule: z.object({ name: scheduleName, paused: z.boolean() }).strict(),
  deleteSchedule: z.object({ name: scheduleName }).strict(),
  setScheduleMetrics: metricsSettingSchema,
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
