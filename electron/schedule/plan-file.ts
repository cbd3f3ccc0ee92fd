/**
 * A schedule's plan (`longhaul.schedule/1`, docs/schedules.md): the one rule for what a plan may
 * say, whoever wrote it — the app's form, `longhaul schedule add`, or a person editing the file. A
 * refusal names where: a field path (the app and the CLI map it to a field or a flag) and, for a
 * file, its line and column.
 *
 *   text ──jsonc-parser──► tree ──checkPlan──► SchedulePlan (normalised) + its SlotClock
 *                 └─ syntax error: line, column, reason      └─ broken rule: the field's line, reason
 */
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { DEFAULT_PORT } from '../contract/api.js';
import { SCHEDULE_PLAN_SCHEMA, type PlanProblem, type SchedulePlan } from '../contract/schedule.js';
import { UDP_DEFAULT_BITS_PER_SEC, UDP_DEFAULT_DATAGRAM_BYTES, UDP_REFUSALS } from '../contract/udp.js';
import { DEFAULT_PARAMS, runParamsSchema } from '../protocol/run-params.js';
import { describeError } from '../util/errors.js';
import { parseHostPort } from '../util/net.js';
import { printable } from '../util/printable.js';
import { parseDuration } from '../util/units.js';
import { cronClock, intervalClock, type SlotClock } from './slots.js';

/** An interval shorter than this would be mostly set-up; longer than a week is a cron line's job. */
const MIN_EVERY_SECONDS = 5;
const MAX_EVERY_SECONDS = 7 * 24 * 3600;
/** Set-up and results around each test, s: an interval must leave at least this beside `seconds`. */
const SETUP_SECONDS = 2;
/** Names become metric labels, file names and History tags: short, plain. */
export const SCHEDULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const NAME_RULE = 'letters, digits, ".", "_" and "-", at most 64, starting with a letter or digit';
const MAX_PEERS = 64;
const KEYS = ['schema', 'name', 'every', 'cron', 'peers', 'test', 'capacity', 'paused'] as const;

type FieldPath = (string | number)[];
/** A plan refused: where (a path into the plan) and why. */
interface PlanRefusal {
  path: FieldPath;
  reason: string;
}

type CheckedPlan = { ok: true; plan: SchedulePlan; clock: SlotClock } | { ok: false; refusal: PlanRefusal };

/** The plan's slots: its interval's or its cron line's. Throws for a plan `checkPlan` would refuse. */
export function clockOf(plan: Pick<SchedulePlan, 'every' | 'cron'>): SlotClock {
  return plan.cron !== undefined ? cronClock(plan.cron) : intervalClock(parseDuration(plan.every ?? '') * 1000);
}

/**
 * Check a plan (parsed JSON, from a file or a request) against every rule; on success the plan in
 * its full form (the test's defaults filled in, peers as `host:port`, `capacity` and `paused` set).
 */
export function checkPlan(value: unknown): CheckedPlan {
  const no = (path: FieldPath, reason: string): CheckedPlan => ({ ok: false, refusal: { path, reason } });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return no([], 'a plan is a JSON object ({ "schema": … })');
  const v = value as Record<string, unknown>;
  const unknownKey = Object.keys(v).find((k) => !(KEYS as readonly string[]).includes(k));
  if (unknownKey !== undefined) return no([unknownKey], `"${printable(unknownKey)}" is not a field of a plan (fields: ${KEYS.join(', ')})`);
  if (v.schema !== SCHEDULE_PLAN_SCHEMA) return no(['schema'], `"schema" must be "${SCHEDULE_PLAN_SCHEMA}"`);
  if (typeof v.name !== 'string' || !SCHEDULE_NAME.test(v.name)) return no(['name'], `"name": ${NAME_RULE}`);

  if ((v.every === undefined) === (v.cron === undefined))
    return no(v.cron === undefined ? [] : ['cron'], 'give exactly one of "every" (e.g. "15m") or "cron" (e.g. "0 * * * *")');
  let clock: SlotClock;
  let everySeconds: number;
  if (v.every !== undefined) {
    if (typeof v.every !== 'string') return no(['every'], '"every" is a duration in quotes, e.g. "20s", "15m", "1h"');
    let s: number;
    try {
      s = parseDuration(v.every);
    } catch (err) {
      return no(['every'], describeError(err).message);
    }
    if (!(s >= MIN_EVERY_SECONDS && s <= MAX_EVERY_SECONDS)) return no(['every'], `"every" must be between ${MIN_EVERY_SECONDS} s and 7 days, got ${s} s`);
    clock = intervalClock(s * 1000);
    everySeconds = s;
  } else {
    if (typeof v.cron !== 'string') return no(['cron'], '"cron" is a line of five fields in quotes, e.g. "0 * * * *" (minute hour day month weekday)');
    try {
      clock = cronClock(v.cron);
    } catch (err) {
      return no(['cron'], `"cron": ${describeError(err).message.replace(/^CronPattern: /, '')}`);
    }
    everySeconds = clock.everyMs / 1000;
  }

  if (!Array.isArray(v.peers) || v.peers.length === 0) return no(['peers'], '"peers" is a list of at least one paired responder, e.g. ["lab-pc:5211"]');
  if (v.peers.length > MAX_PEERS) return no(['peers'], `at most ${MAX_PEERS} peers in one plan`);
  const peers: string[] = [];
  for (const [i, p] of v.peers.entries()) {
    if (typeof p !== 'string') return no(['peers', i], 'a peer is "HOST" or "HOST:PORT" in quotes');
    let hp: { host: string; port: number };
    try {
      hp = parseHostPort(p.trim(), DEFAULT_PORT);
    } catch (err) {
      return no(['peers', i], describeError(err).message);
    }
    const label = hp.host.includes(':') ? `[${hp.host}]:${hp.port}` : `${hp.host}:${hp.port}`;
    if (peers.includes(label)) return no(['peers', i], `${printable(label)} is listed twice: a round tests each peer once`);
    peers.push(label);
  }

  const test = v.test ?? {};
  if (typeof test !== 'object' || test === null || Array.isArray(test))
    return no(['test'], '"test" is an object of run parameters, e.g. { "seconds": 10, "streams": 2 }');
  const t = test as Record<string, unknown>;
  const udp = t.protocol === 'udp';
  const defaults = { ...DEFAULT_PARAMS, ...(udp ? { bufferBytes: UDP_DEFAULT_DATAGRAM_BYTES, bitrateBitsPerSec: UDP_DEFAULT_BITS_PER_SEC } : {}) };
  if (t.purpose !== undefined) return no(['test', 'purpose'], '"purpose" is Longhaul\'s own: leave it out');
  if (t.bytes !== undefined && t.bytes !== null)
    return no(['test', 'bytes'], 'every scheduled test lasts a time ("seconds"), so the rounds compare: leave "bytes" out');
  const parsed = runParamsSchema.safeParse({ ...defaults, ...t, bytes: null });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // An unknown key (a typo) is pointed at itself, not at its object.
    const extra = issue?.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
    const path: FieldPath = ['test', ...((issue?.path ?? []) as FieldPath), ...extra];
    const reason = extra.length
      ? `"${printable(String(extra[0]))}" is not a run parameter (see docs/schedules.md)`
      : (issue?.message ?? 'not valid run parameters');
    return no(path, `"${path.join('.')}": ${reason}`);
  }
  const seconds = parsed.data.seconds ?? DEFAULT_PARAMS.seconds ?? 10;
  if (everySeconds < seconds + SETUP_SECONDS)
    return no([v.cron !== undefined ? 'cron' : 'every'], `each test runs ${seconds} s plus set-up: give an interval of at least ${seconds + SETUP_SECONDS} s`);

  if (v.capacity !== undefined && typeof v.capacity !== 'boolean') return no(['capacity'], '"capacity" is true or false');
  if (v.capacity === true && udp) return no(['capacity'], UDP_REFUSALS.capacity);
  if (v.paused !== undefined && typeof v.paused !== 'boolean') return no(['paused'], '"paused" is true or false');

  const plan: SchedulePlan = {
    schema: SCHEDULE_PLAN_SCHEMA,
    name: v.name,
    ...(v.every !== undefined ? { every: v.every as string } : { cron: v.cron as string }),
    peers,
    test: parsed.data,
    capacity: v.capacity === true,
    paused: v.paused === true,
  };
  return { ok: true, plan, clock };
}

/** A plan file's text, checked: the plan, or where it breaks (line and column, 1-based) and why. */
export function parsePlanText(text: string, fileName: string): { ok: true; plan: SchedulePlan; clock: SlotClock } | { ok: false; problem: PlanProblem } {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (first || !tree) {
    const at = lineAt(text, first?.offset ?? 0);
    return { ok: false, problem: { ...at, reason: first ? `not JSON: ${words(printParseErrorCode(first.error))}` : 'the file is empty' } };
  }
  const checked = checkPlan(JSON.parse(text) as unknown);
  if (!checked.ok) return { ok: false, problem: { ...lineAt(text, offsetOf(tree, checked.refusal.path)), reason: checked.refusal.reason } };
  const expected = `${checked.plan.name}.plan.json`;
  if (fileName !== expected)
    return {
      ok: false,
      problem: {
        ...lineAt(text, offsetOf(tree, ['name'])),
        reason: `"name" is "${checked.plan.name}" but the file is ${printable(fileName)}: rename one (a plan's file is its name + .plan.json)`,
      },
    };
  return checked;
}

/** A plan as its file holds it: the fields in a fixed order, two-space JSON, a final newline. */
export function planText(plan: SchedulePlan): string {
  const ordered: SchedulePlan = {
    schema: plan.schema,
    name: plan.name,
    ...(plan.every !== undefined ? { every: plan.every } : {}),
    ...(plan.cron !== undefined ? { cron: plan.cron } : {}),
    peers: plan.peers,
    test: plan.test,
    capacity: plan.capacity,
    paused: plan.paused,
  };
  return JSON.stringify(ordered, null, 2) + '\n';
}

/** The deepest node of `path` the file has (a field left out points at its object). */
function offsetOf(tree: Node, path: FieldPath): number {
  for (let n = path.length; n > 0; n--) {
    const node = findNodeAtLocation(tree, path.slice(0, n));
    if (node) return node.parent?.type === 'property' ? node.parent.offset : node.offset;
  }
  return tree.offset;
}

function lineAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/** `CommaExpected` → "comma expected". */
function words(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
