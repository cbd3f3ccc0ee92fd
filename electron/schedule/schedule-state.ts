/**
 * What a schedule has run, kept across restarts: `<data dir>/schedules/<name>.json`, the last slot
 * each peer's test ran in, rewritten (atomically) after every test, and the plan that ran (the last
 * accepted one: a plan file broken by hand while the schedule was stopped runs as it was). A restart
 * of the same plan (same interval or cron line, same peers) picks it up, so a slot a peer has run is never run again and a slot it has
 * not is run once (issue 39: "restarting the scheduler mid-plan loses no run and doubles none"). A
 * file for another plan, or one that is not this format, is set aside with the reason and the
 * schedule starts afresh (it is rewritten at the first test).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ScheduleLastRun, SchedulePeer, SchedulePlan } from '../contract/schedule.js';
import { replaceFileAtomicallyAsync } from '../report/report-file.js';
import { describeError } from '../util/errors.js';
import { readJsonFile } from '../util/json-file.js';
import { peerLabel } from './schedule-metrics.js';

const SCHEMA = 'longhaul.schedule-state/1';

interface StateFile {
  schema: typeof SCHEMA;
  name: string;
  /** The plan's slots: `every 900 s` or `cron 0 * * * *` (files before cron lines had only `everySeconds`). */
  when?: string;
  everySeconds?: number;
  peers: string[];
  /** The plan that ran (absent for `longhaul schedule --every …` without a plan file). */
  plan?: SchedulePlan;
  /** Each peer's last test, for the screens (the plan's `host:port` → what it did). */
  lastRuns?: Record<string, ScheduleLastRun>;
  /** Peer (`host:port`) → the last slot its test ran in. */
  lastSlots: Record<string, number>;
  updatedAt: string;
}

/** What a schedule's state gives back (empty for a new schedule, with a note when set aside). */
interface KeptState {
  lastSlots: Map<string, number>;
  note: string | null;
  plan: SchedulePlan | null;
  /** Kept across a change of plan too: what a peer last did stays true. */
  lastRuns: Map<string, ScheduleLastRun>;
}

export class ScheduleState {
  readonly file: string;

  constructor(
    dataDir: string,
    private readonly name: string,
    /** What the slots are: `every 900 s` (whole seconds) or `cron LINE` (slotWhen). */
    private readonly when: string,
    private readonly peers: SchedulePeer[],
    private readonly plan: SchedulePlan | null = null,
  ) {
    this.file = path.join(dataDir, 'schedules', `${name}.json`);
  }

  /** The last slots of this plan from an earlier start, or none and why not (no file is no note). */
  async read(): Promise<KeptState> {
    let v: Partial<StateFile> | null;
    try {
      v = (await readJsonFile(this.file)) as Partial<StateFile> | null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lastSlots: new Map(), note: null, plan: null, lastRuns: new Map() };
      return { lastSlots: new Map(), note: `${this.file} could not be read (${describeError(err).message}): starting afresh`, plan: null, lastRuns: new Map() };
    }
    const labels = this.peers.map(peerLabel);
    const slots = v?.lastSlots;
    if (v?.schema !== SCHEMA || typeof slots !== 'object' || slots === null || !Object.values(slots).every((s) => Number.isSafeInteger(s)))
      return { lastSlots: new Map(), note: `${this.file} is not a schedule's state (${SCHEMA}): starting afresh`, plan: null, lastRuns: new Map() };
    const plan = v.plan && typeof v.plan === 'object' && v.plan.name === this.name ? v.plan : null;
    const lastRuns = new Map(
      Object.entries(v.lastRuns ?? {}).filter(([, r]) => typeof r === 'object' && r !== null && typeof r.endedAt === 'string' && Array.isArray(r.verdicts)),
    );
    const when = v.when ?? (v.everySeconds !== undefined ? slotWhen({ everySeconds: v.everySeconds }) : null);
    if (when !== this.when || JSON.stringify(v.peers) !== JSON.stringify(labels))
      return { lastSlots: new Map(), note: `${this.file} is of another plan (interval or peers changed): starting afresh`, plan, lastRuns };
    return { lastSlots: new Map(labels.filter((l) => l in slots).map((l) => [l, slots[l] as number])), note: null, plan, lastRuns };
  }

  /** Keep the last slots (after every test) and, once told, each peer's last test. */
  async write(lastSlots: ReadonlyMap<string, number>, lastRuns: ReadonlyMap<string, ScheduleLastRun> = new Map()): Promise<void> {
    const doc: StateFile = {
      schema: SCHEMA,
      name: this.name,
      when: this.when,
      peers: this.peers.map(peerLabel),
      ...(this.plan ? { plan: this.plan } : {}),
      ...(lastRuns.size ? { lastRuns: Object.fromEntries(lastRuns) } : {}),
      lastSlots: Object.fromEntries(lastSlots),
      updatedAt: new Date().toISOString(),
    };
    await mkdir(path.dirname(this.file), { recursive: true });
    await replaceFileAtomicallyAsync(this.file, JSON.stringify(doc, null, 2) + '\n');
  }
}

/** A schedule's slots as the state names them: `every 900 s` or `cron 0 * * * *`. */
export function slotWhen(w: { everySeconds: number } | { cron: string }): string {
  return 'cron' in w ? `cron ${w.cron}` : `every ${w.everySeconds} s`;
}
