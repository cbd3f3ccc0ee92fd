/**
 * The Schedules screen's form: a schedule as typed (name, every N or a cron line, partners, the
 * test), turned into a plan for the host with a message per bad field. The host checks the plan
 * again with the plans' one rule (electron/schedule/plan-file.ts) and names a field it refuses,
 * which `fieldOfRefusal` maps back to the form.
 */
import { DEFAULT_PORT } from '../../../electron/contract/api.js';
import type { Direction } from '../../../electron/contract/result.js';
import { SCHEDULE_PLAN_SCHEMA, type SchedulePlan } from '../../../electron/contract/schedule.js';
import { MAX_SECONDS, MAX_STREAMS } from '../../../electron/contract/limits.js';
import { UDP_DEFAULT_DATAGRAM_BYTES } from '../../../electron/contract/udp.js';
import { parseDuration, parseRate } from '../../../electron/contract/units.js';

export interface ScheduleForm {
  name: string;
  when: 'every' | 'cron';
  /** A duration as the CLI's --every takes it: 20s, 15m, 1h. */
  every: string;
  /** Five fields: minute hour day month weekday. */
  cron: string;
  /** `host` or `host:port`, comma- or space-separated, in the order a round tests them. */
  partners: string;
  protocol: 'tcp' | 'udp';
  streams: string;
  seconds: string;
  direction: Direction;
  /** UDP: the rate per stream (the CLI's -b). */
  bitrate: string;
  capacity: boolean;
  paused: boolean;
}

export const NEW_SCHEDULE: ScheduleForm = {
  name: '',
  when: 'every',
  every: '15m',
  cron: '0 * * * *',
  partners: '',
  protocol: 'tcp',
  streams: '1',
  seconds: '10',
  direction: 'forward',
  bitrate: '1M',
  capacity: false,
  paused: false,
};

type Field = keyof ScheduleForm;
type ScheduleFormOutcome =
  { ok: true; plan: Omit<SchedulePlan, 'test'> & { test: Record<string, unknown> } } | { ok: false; errors: Partial<Record<Field, string>> };

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The partners as the plan lists them (`host:port`, the default port added), or why not. */
function partnersOf(text: string): { ok: true; peers: string[] } | { ok: false; error: string } {
  const items = text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) return { ok: false, error: 'at least one partner, e.g. 192.168.1.20 or lab-pc:5211' };
  const peers: string[] = [];
  for (const item of items) {
    const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(item);
    const port = m?.[2] !== undefined ? Number(m[2]) : DEFAULT_PORT;
    if (!m || !(port >= 1 && port <= 65535)) return { ok: false, error: `"${item}" is not HOST or HOST:PORT` };
    const peer = `${m[1]}:${port}`;
    if (peers.includes(peer)) return { ok: false, error: `${peer} is listed twice` };
    peers.push(peer);
  }
  return { ok: true, peers };
}

/**
 * The plan the form describes, or a message per bad field. `base`: the test of the plan being edited:
 * what the form has no field for (window, MSS, congestion control…, set in the file or by the CLI) is kept,
 * unless the protocol changed.
 */
export function planOfForm(f: ScheduleForm, base: SchedulePlan['test'] | null = null): ScheduleFormOutcome {
  const errors: Partial<Record<Field, string>> = {};
  if (!NAME.test(f.name.trim())) errors.name = 'letters, digits, ".", "_" and "-", starting with a letter or digit (at most 64)';
  const seconds = parseDuration(f.seconds);
  if (!seconds.ok) errors.seconds = seconds.error;
  else if (!(seconds.value > 0 && seconds.value <= MAX_SECONDS)) errors.seconds = `between 0 and ${MAX_SECONDS} s`;
  if (f.when === 'every') {
    const every = parseDuration(f.every);
    if (!every.ok) errors.every = every.error;
    else if (every.value < 5 || every.value > 7 * 86400) errors.every = 'between 5 s and 7 days (longer: a cron line)';
    else if (seconds.ok && every.value < seconds.value + 2) errors.every = `each test runs ${seconds.value} s plus set-up: at least ${seconds.value + 2} s`;
  } else if (f.cron.trim().split(/\s+/).length !== 5) errors.cron = 'five fields: minute hour day month weekday, e.g. 0 * * * *';
  const streams = Number(f.streams);
  if (!Number.isInteger(streams) || streams < 1 || streams > MAX_STREAMS) errors.streams = `a whole number, 1 to ${MAX_STREAMS}`;
  const partners = partnersOf(f.partners);
  if (!partners.ok) errors.partners = partners.error;
  const bitrate = f.protocol === 'udp' ? parseRate(f.bitrate) : null;
  if (bitrate && !bitrate.ok) errors.bitrate = bitrate.error;
  if (f.protocol === 'udp' && f.capacity) errors.capacity = 'measuring the path is a TCP run: not with UDP';
  if (Object.keys(errors).length || !partners.ok || !seconds.ok) return { ok: false, errors };
  const sameProtocol = base !== null && (base.protocol === 'udp') === (f.protocol === 'udp');
  const test: Record<string, unknown> = { ...(sameProtocol ? base : {}), streams, seconds: seconds.value, direction: f.direction };
  if (f.protocol === 'udp')
    Object.assign(test, {
      protocol: 'udp',
      bufferBytes: base && sameProtocol ? base.bufferBytes : UDP_DEFAULT_DATAGRAM_BYTES,
      bitrateBitsPerSec: bitrate?.ok ? bitrate.value : undefined,
    });
  return {
    ok: true,
    plan: {
      schema: SCHEDULE_PLAN_SCHEMA,
      name: f.name.trim(),
      ...(f.when === 'every' ? { every: f.every.trim() } : { cron: f.cron.trim().replace(/\s+/g, ' ') }),
      peers: partners.peers,
      test,
      capacity: f.capacity,
      paused: f.paused,
    },
  };
}

/** The form for editing a kept plan (what it has no field for stays in the plan: `planOfForm`'s `base`). */
export function formOfPlan(p: SchedulePlan): ScheduleForm {
  const t = p.test;
  return {
    name: p.name,
    when: p.cron !== undefined ? 'cron' : 'every',
    every: p.every ?? NEW_SCHEDULE.every,
    cron: p.cron ?? NEW_SCHEDULE.cron,
    partners: p.peers.join(', '),
    protocol: t.protocol === 'udp' ? 'udp' : 'tcp',
    streams: String(t.streams),
    seconds: String(t.seconds ?? 10),
    direction: t.direction,
    bitrate: t.bitrateBitsPerSec ? `${t.bitrateBitsPerSec / 1e6}M` : NEW_SCHEDULE.bitrate,
    capacity: p.capacity,
    paused: p.paused,
  };
}

/** The form's field for the host's refusal (its message ends with the plan's field path, e.g. "(test.seconds)"). */
export function fieldOfRefusal(message: string): Field | null {
  const path = /\(([a-z.0-9]+)\)\s*$/i.exec(message)?.[1] ?? '';
  const head = path.split('.')[0];
  const map: Record<string, Field> = { name: 'name', every: 'every', cron: 'cron', peers: 'partners', capacity: 'capacity', paused: 'paused' };
  if (head === 'test')
    return (
      ({ seconds: 'seconds', streams: 'streams', bitrateBitsPerSec: 'bitrate', direction: 'direction' } as Record<string, Field>)[path.split('.')[1] ?? ''] ??
      'seconds'
    );
  return map[head ?? ''] ?? null;
}
