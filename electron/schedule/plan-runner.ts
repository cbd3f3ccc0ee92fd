/**
 * Runs schedules: the saved plans (plan-store.ts), followed as their files change, or plans given
 * once (`longhaul schedule --every …`, not saved). Each plan gets a Scheduler; all of them share this
 * PC's turn (test-turns.ts), one ScheduleMetrics and History. The files are looked at every WATCH_MS
 * (a poll: it sees edits on every OS and file system, and an editor's rename-and-replace):
 *
 *   file valid, not paused ──► running (an edit: stopped after its test, started again as edited)
 *   file paused or deleted ──► stopped after its test
 *   file broken by hand    ──► the plan running goes on as it was (or, after a restart, the last
 *                              accepted plan kept in its state); the problem is said with its line
 */
import os from 'node:os';
import { DEFAULT_PORT } from '../contract/api.js';
import type { LonghaulResult } from '../contract/result.js';
import type { PlanProblem, ScheduleLastRun, SchedulePeer, SchedulePlan, ScheduleRunRecord } from '../contract/schedule.js';
import type { RunTarget } from '../sweep/run-target.js';
import { describeError } from '../util/errors.js';
import { parseHostPort } from '../util/net.js';
import { parseDuration } from '../util/units.js';
import { clockOf } from './plan-file.js';
import type { PlanStore } from './plan-store.js';
import type { ScheduleMetrics } from './schedule-metrics.js';
import { ScheduleState, slotWhen } from './schedule-state.js';
import { lastRoundSlot, Scheduler, type ScheduleEvent } from './scheduler.js';
import { nextRound, slotOffsetMs } from './slots.js';
import { TestTurns } from './test-turns.js';

/** How often the plan files are looked at, ms. */
const WATCH_MS = 2000;

export type PlanRunnerEvent =
  | { kind: 'started'; name: string; plan: SchedulePlan; resumedAfter: number | null; note: string | null; kept: boolean }
  | { kind: 'stopped'; name: string; why: 'paused' | 'deleted' | 'edited' | 'ended' }
  /** A plan file that cannot be used; `kept`: the plan as it was goes on running. */
  | { kind: 'problem'; name: string; file: string; problem: PlanProblem; kept: boolean }
  /** A plan file said to be broken can be used again. */
  | { kind: 'fixed'; name: string; file: string }
  | { kind: 'state-not-kept'; name: string; file: string; reason: string }
  | { kind: 'schedule'; name: string; event: ScheduleEvent };

interface PlanRunnerOptions {
  /** The results folder: History, and the schedules' state. */
  resultsDir: string;
  targetOf: (peer: SchedulePeer) => RunTarget;
  save: (result: LonghaulResult) => Promise<{ savedPath: string | null; saveError: string | null }>;
  metrics: ScheduleMetrics;
  onEvent: (e: PlanRunnerEvent) => void;
  /** What else uses this PC now (the app's run), or null. */
  busyElsewhere?: () => string | null;
  /** Stop each schedule after this many rounds (`--rounds`). */
  maxRounds?: number;
  /** Keep the process alive while following the files (the CLI, waiting for a plan); the app's window does that itself. */
  holdProcess?: boolean;
}

/** A schedule running now. */
interface Running {
  plan: SchedulePlan;
  scheduler: Scheduler;
  done: Promise<void>;
  abort: AbortController;
  /** Why it is being stopped, once it is. */
  stopping: 'paused' | 'deleted' | 'edited' | 'ended' | null;
  /** Each peer's last test (the plan's `host:port` → it), kept in the state with the slots. */
  lastRuns: Map<string, ScheduleLastRun>;
  /** The peer under test now (the plan's `host:port`), or null. */
  testing: string | null;
}

/** What a screen shows of one running schedule. */
export interface RunningView {
  plan: SchedulePlan;
  nextAtMs: number | null;
  testing: string | null;
  lastRuns: Map<string, ScheduleLastRun>;
}

export class PlanRunner {
  readonly turns: TestTurns;
  private readonly running = new Map<string, Running>();
  /** The last problem said per plan (so a broken file is said once, not every WATCH_MS). */
  private readonly said = new Map<string, string>();
  /** The schedules the last look found (a name gone since was deleted). */
  private known = new Set<string>();
  /** Plans that ran out of rounds or slots, as they were: not started again unless edited. */
  private readonly finished = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private scanning: Promise<void> | null = null;
  private closed = false;
  private markStopped!: () => void;
  /** Resolves once `stop` has ended every schedule. */
  readonly stopped = new Promise<void>((resolve) => (this.markStopped = resolve));

  constructor(private readonly o: PlanRunnerOptions) {
    this.turns = new TestTurns(o.busyElsewhere);
  }

  /**
   * Run the store's plans that are not paused (`only`: these names alone), and follow their files;
   * resolves once the first look is done (the plans then running have started).
   */
  follow(store: PlanStore, only: string[] | null): Promise<void> {
    const tick = (): Promise<void> => {
      if (this.closed) return Promise.resolve();
      const scan = this.scan(store, only).finally(() => {
        this.scanning = null;
        if (this.closed) return;
        this.timer = setTimeout(() => void tick(), WATCH_MS);
        if (!this.o.holdProcess) this.timer.unref();
      });
      this.scanning = scan;
      return scan;
    };
    return tick();
  }

  /** Look at the files now (the app after it changed one), without waiting for the next poll. */
  async rescan(store: PlanStore, only: string[] | null): Promise<void> {
    await this.scanning;
    if (!this.closed) await this.scan(store, only);
  }

  /** Run one plan as given (not from a file); resolves once it has started. */
  runOnce(plan: SchedulePlan): Promise<void> {
    return this.startPlan(plan, false);
  }

  /** Each running schedule, by name. */
  views(): Map<string, RunningView> {
    return new Map([...this.running].map(([name, r]) => [name, { plan: r.plan, nextAtMs: r.scheduler.nextAtMs, testing: r.testing, lastRuns: r.lastRuns }]));
  }

  /** True while any schedule runs. */
  get active(): boolean {
    return this.running.size > 0;
  }

  /** Resolves when every schedule has ended (stopped, or out of rounds). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Stop every schedule after the test in flight (`cutShort`: the test in flight stops now, saved as partial); resolves when all have. */
  async stop(cutShort: boolean): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.scanning;
    for (const r of this.running.values()) {
      r.stopping ??= 'ended';
      r.scheduler.stopAfterTest();
      if (cutShort) r.abort.abort();
    }
    await this.settled();
    this.markStopped();
  }

  private async scan(store: PlanStore, only: string[] | null): Promise<void> {
    let entries: Awaited<ReturnType<PlanStore['list']>>;
    try {
      entries = (await store.list()).filter((e) => only === null || only.includes(e.name));
    } catch {
      return; // the folder cannot be listed now: the running plans go on, looked at again next time
    }
    const seen = new Set(entries.map((e) => e.name));
    // A deleted schedule's series leave /metrics (a running one's once its test in flight is over: ended()).
    for (const name of this.known) if (!seen.has(name) && !this.running.has(name)) void this.o.metrics.forget(name);
    this.known = seen;
    for (const [name, r] of this.running) if (!seen.has(name) && !r.stopping) this.stopPlan(name, 'deleted');
    for (const e of entries) {
      const r = this.running.get(e.name);
      if (!e.plan) {
        const kept = r !== undefined && !r.stopping;
        if (this.said.get(e.name) !== e.problem.reason) {
          this.said.set(e.name, e.problem.reason);
          this.o.onEvent({ kind: 'problem', name: e.name, file: e.file, problem: e.problem, kept: kept || (await this.keptPlan(e.name)) !== null });
        }
        if (!r && !this.closed) {
          const before = await this.keptPlan(e.name);
          if (before && !before.paused) await this.startPlan(before, true);
        }
        continue;
      }
      if (this.said.delete(e.name)) this.o.onEvent({ kind: 'fixed', name: e.name, file: e.file });
      if (r && r.stopping) continue; // stopping: looked at again once it has
      if (e.plan.paused) {
        if (r) this.stopPlan(e.name, 'paused');
        continue;
      }
      if (r && JSON.stringify(r.plan) !== JSON.stringify(e.plan)) {
        this.stopPlan(e.name, 'edited');
        continue; // started again as edited at the next look, once the test in flight is over
      }
      if (!r && !this.closed && this.finished.get(e.name) !== JSON.stringify(e.plan)) await this.startPlan(e.plan, false);
    }
  }

  /** The plan a schedule last ran (its state keeps it), for a plan file broken while nothing ran it. */
  private async keptPlan(name: string): Promise<SchedulePlan | null> {
    return (await new ScheduleState(this.o.resultsDir, name, '', []).read()).plan;
  }

  private stopPlan(name: string, why: 'paused' | 'deleted' | 'edited'): void {
    const r = this.running.get(name);
    if (!r || r.stopping) return;
    r.stopping = why;
    r.scheduler.stopAfterTest();
  }

  private async startPlan(plan: SchedulePlan, kept: boolean): Promise<void> {
    if (this.running.has(plan.name)) return;
    const peers = peersOf(plan);
    const state = stateOf(plan, this.o.resultsDir, true);
    const before = await state.read();
    let stateProblem: string | null = null;
    const keep = (slots: ReadonlyMap<string, number>): Promise<void> =>
      state.write(slots, r.lastRuns).catch((err: unknown) => {
        if (stateProblem) return;
        stateProblem = describeError(err).message;
        this.o.onEvent({ kind: 'state-not-kept', name: plan.name, file: state.file, reason: stateProblem });
      });
    let slotsNow: ReadonlyMap<string, number> = before.lastSlots;
    const labelOf = (p: SchedulePeer): string => plan.peers[peers.indexOf(p)] ?? `${p.host}:${p.port}`;
    const abort = new AbortController();
    const scheduler = new Scheduler({
      name: plan.name,
      clock: clockOf(plan),
      peers,
      turns: this.turns,
      settings: { params: plan.test, link: null, path: 'direct' },
      capacity: plan.capacity,
      targetOf: this.o.targetOf,
      save: this.o.save,
      metrics: this.o.metrics,
      hostname: os.hostname(),
      ...(this.o.maxRounds !== undefined ? { maxRounds: this.o.maxRounds } : {}),
      lastSlots: before.lastSlots,
      // Kept right after each result is saved (a restart then neither runs it again nor misses it);
      // not kept: a restart may run a slot again, said once, and the schedule goes on.
      onTested: async (slots) => {
        slotsNow = slots;
        await keep(slots);
      },
      onEvent: (event) => {
        if (event.kind === 'testing') r.testing = labelOf(event.peer);
        if (event.kind === 'run') {
          r.testing = null;
          const label = labelOf(event.record.peer);
          r.lastRuns.set(label, lastRunOf(label, event.record, event.result));
          void keep(slotsNow);
        }
        this.o.onEvent({ kind: 'schedule', name: plan.name, event });
      },
    });
    const r: Running = { plan, scheduler, abort, stopping: null, done: Promise.resolve(), lastRuns: new Map(before.lastRuns), testing: null };
    this.running.set(plan.name, r);
    // Written at the start too: the state then holds this plan even before its first test.
    await state.write(before.lastSlots, r.lastRuns).catch(() => undefined);
    const resumedAfter = before.lastSlots.size ? Math.max(...before.lastSlots.values()) : null;
    this.o.onEvent({ kind: 'started', name: plan.name, plan, resumedAfter, note: before.note, kept });
    r.done = scheduler.run(abort.signal).then(
      () => this.ended(plan.name, r),
      () => this.ended(plan.name, r),
    );
  }

  private ended(name: string, r: Running): void {
    if (this.running.get(name) === r) this.running.delete(name);
    if (r.stopping === 'deleted' || !this.known.has(name)) void this.o.metrics.forget(name);
    if (r.stopping === null) this.finished.set(name, JSON.stringify(r.plan));
    this.o.onEvent({ kind: 'stopped', name, why: r.stopping ?? 'ended' });
  }
}

/**
 * A plan not running here, as a screen shows it: when its next round would be due if a runner started
 * now (its state's last slots, this PC's offset; `atMs` ≤ now means at once; null: its clock has no
 * slot left), and each peer's last test.
 */
export async function planStatus(
  plan: SchedulePlan,
  resultsDir: string,
  nowMs: number,
): Promise<{ next: { slot: number; atMs: number } | null; lastRuns: Map<string, ScheduleLastRun> }> {
  const { lastSlots, lastRuns } = await stateOf(plan, resultsDir, false).read();
  const clock = clockOf(plan);
  return { next: nextRound(nowMs, clock, slotOffsetMs(clock.everyMs, plan.name, os.hostname()), lastRoundSlot(peersOf(plan), lastSlots)), lastRuns };
}

/** A test's summary for the screens. */
function lastRunOf(peer: string, record: ScheduleRunRecord, result: LonghaulResult | null): ScheduleLastRun {
  const measured = result !== null && result.total.bytes > 0;
  return {
    peer,
    endedAt: record.endedAt,
    outcome: record.outcome,
    code: record.code,
    bitsPerSecond: measured ? result.total.bitsPerSecond : null,
    verdicts: measured ? (result.diagnosis ?? []).map((d) => d.verdict) : [],
    resultId: record.savedPath && result ? result.id : null,
    saveError: record.saveError,
  };
}

function peersOf(plan: SchedulePlan): SchedulePeer[] {
  return plan.peers.map((p) => parseHostPort(p, DEFAULT_PORT));
}

/** The plan's state file (`keep`: written with the plan, as the last accepted one). */
function stateOf(plan: SchedulePlan, resultsDir: string, keep: boolean): ScheduleState {
  const when = plan.cron !== undefined ? slotWhen({ cron: plan.cron }) : slotWhen({ everySeconds: parseDuration(plan.every ?? '') });
  return new ScheduleState(resultsDir, plan.name, when, peersOf(plan), keep ? plan : null);
}
