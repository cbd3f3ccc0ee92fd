/**
 * Schedules in the app (issue 39, docs/schedules.md): the app runs this PC's kept plans (the same
 * files as `longhaul schedule`) while it is open, one test at a time and never beside the user's own
 * run, sweep or ramp (each waits for the other: `busyElsewhere` here, `testing` there). Only one
 * process runs a PC's schedules (schedule/runner-lock.ts): when `longhaul schedule run` already
 * does, the screen lists the plans and says so, and the app tries again every minute.
 *
 *   plan files ──PlanRunner──► tests ──► History (tagged) ──► hub: onSchedules (+ a notice:
 *        ▲                                                    a failed test, a verdict that changed)
 *        └── the screen: save / pause / delete (the file changes, the runner follows at once)
 */
import os from 'node:os';
import type { LonghaulResult } from '../contract/result.js';
import type { ScheduleLastRun } from '../contract/schedule.js';
import type { MetricsSetting, ScheduleListing, ScheduleNotice, ScheduleView, SaveScheduleRequest } from '../contract/schedule-app.js';
import { PlanRunner, planStatus, type PlanRunnerEvent, type RunningView } from '../schedule/plan-runner.js';
import { PlanStore } from '../schedule/plan-store.js';
import { takeRunnerLock } from '../schedule/runner-lock.js';
import { ScheduleMetrics } from '../schedule/schedule-metrics.js';
import { PeerTarget } from '../sweep/run-target.js';
import type { LoadedTrust } from '../security/load-trust.js';
import { describeError } from '../util/errors.js';
import type { EventHub } from './event-hub.js';
import { MetricsEndpoint } from './metrics-endpoint.js';

/** How often the app asks again for this PC's schedules while another process runs them, ms. */
const LOCK_RETRY_MS = 60_000;
/** How long closing waits for the test in flight (cut short, saved as partial), ms. */
const CLOSE_WAIT_MS = 8000;

interface ScheduleHostOptions {
  hub: EventHub;
  resultsDir: string;
  trust: () => Promise<LoadedTrust>;
  save: (result: LonghaulResult) => Promise<{ savedPath: string | null; saveError: string | null }>;
  /** What else uses this PC now (the user's run, sweep, ramp), or null. */
  busyElsewhere: () => string | null;
  /** After each scheduled test (History's retention rule). */
  afterTest?: () => void;
}

export class ScheduleHost {
  readonly store: PlanStore;
  readonly metrics = new ScheduleMetrics();
  /** /metrics for Prometheus, as the user's setting says (metrics-endpoint.ts). */
  private readonly endpoint: MetricsEndpoint;
  private runner: PlanRunner | null = null;
  private release: (() => Promise<void>) | null = null;
  private notRunning: string | null = 'starting';
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  /** The first take of the schedules, awaited by the first listing (it says then whether this app runs them). */
  private starting: Promise<void> | null = null;
  /** Each schedule's peer's verdicts at its last test (name NUL peer), to tell a change. */
  private readonly seen = new Map<string, ScheduleLastRun['verdicts']>();

  constructor(private readonly o: ScheduleHostOptions) {
    this.store = new PlanStore(o.resultsDir);
    this.endpoint = new MetricsEndpoint(o.resultsDir, this.metrics);
  }

  /** What a scheduled test is doing on this PC now (for the other hosts' "busy"), or null. */
  get testing(): string | null {
    return this.runner?.turns.current ?? null;
  }

  /** Take this PC's schedules (or say who has them, and try again later) and run them. */
  start(): Promise<void> {
    this.starting = this.take();
    return this.starting;
  }

  private async take(): Promise<void> {
    if (this.closed || this.runner) return;
    try {
      const lock = await takeRunnerLock(this.o.resultsDir, `the app (${os.hostname()})`);
      this.release = () => lock.release();
    } catch (err) {
      this.notRunning = describeError(err).message;
      this.retry = setTimeout(() => void this.take(), LOCK_RETRY_MS);
      this.retry.unref?.();
      await this.endpoint.load(this.notRunning);
      await this.emit(null);
      return;
    }
    this.notRunning = null;
    const security = await this.o.trust();
    this.runner = new PlanRunner({
      resultsDir: this.o.resultsDir,
      targetOf: (p) => new PeerTarget(p.host, p.port, security),
      save: this.o.save,
      metrics: this.metrics,
      busyElsewhere: this.o.busyElsewhere,
      onEvent: (e) => void this.onRunnerEvent(e),
    });
    await this.runner.follow(this.store, null);
    await this.endpoint.load(null);
    // A verdict change is told against the last test before the app started too.
    for (const [name, v] of this.runner.views()) for (const [peer, run] of v.lastRuns) if (run.verdicts.length) this.seen.set(`${name}\0${peer}`, run.verdicts);
    await this.emit(null);
  }

  async list(): Promise<ScheduleListing> {
    await this.starting;
    return this.listNow();
  }

  private async listNow(): Promise<ScheduleListing> {
    const entries = await this.store.list();
    const running: Map<string, RunningView> = this.runner?.views() ?? new Map();
    const now = Date.now();
    const schedules: ScheduleView[] = [];
    for (const e of entries) {
      const r = running.get(e.name);
      const plan = r?.plan ?? e.plan;
      const base = { name: e.name, file: e.file, problem: e.problem };
      if (!plan) {
        schedules.push({ ...base, plan: null, state: 'broken', nextAtMs: null, testing: null, lastRuns: [] });
        continue;
      }
      const status = await planStatus(plan, this.o.resultsDir, now).catch(() => ({ next: null, lastRuns: new Map<string, ScheduleLastRun>() }));
      const lastRuns = r?.lastRuns ?? status.lastRuns;
      schedules.push({
        ...base,
        plan,
        state: r ? 'running' : this.notRunning !== null ? 'not-run' : plan.paused ? 'paused' : e.plan ? 'running' : 'broken',
        nextAtMs: r
          ? (r.nextAtMs ?? (r.testing ? null : (status.next?.atMs ?? null)))
          : plan.paused || this.notRunning !== null
            ? null
            : (status.next?.atMs ?? null),
        testing: r?.testing ?? null,
        lastRuns: plan.peers.flatMap((p) => lastRuns.get(p) ?? []),
      });
    }
    return { schedules, dir: this.store.dir, notRunning: this.notRunning, metrics: this.endpoint.view() };
  }

  /** Keep a plan from the screen (new, or an edit of `editing`, perhaps renamed); the runner follows at once. */
  async save(req: SaveScheduleRequest): Promise<ScheduleListing> {
    const kept = await this.store.save(req.plan, { replace: req.editing !== null && sameName(req.plan, req.editing) });
    if (req.editing !== null && req.editing !== kept.name) await this.store.remove(req.editing).catch(() => undefined);
    return this.changed();
  }

  async setPaused(name: string, paused: boolean): Promise<ScheduleListing> {
    await this.store.setPaused(name, paused);
    return this.changed();
  }

  async remove(name: string): Promise<ScheduleListing> {
    await this.store.remove(name);
    return this.changed();
  }

  /** Keep the /metrics setting and serve (or stop serving) as it says. */
  async setMetrics(setting: MetricsSetting): Promise<ScheduleListing> {
    await this.endpoint.save(setting, this.notRunning);
    return this.changed();
  }

  /** Stop the schedules (the test in flight cut short, saved as partial), bounded. */
  async close(): Promise<void> {
    this.closed = true;
    await this.starting;
    if (this.retry) clearTimeout(this.retry);
    if (this.runner) await Promise.race([this.runner.stop(true), new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
    await this.endpoint.close();
    await this.release?.();
  }

  private async changed(): Promise<ScheduleListing> {
    await this.runner?.rescan(this.store, null);
    const listing = await this.listNow();
    this.o.hub.emit('onSchedules', { listing, notice: null });
    return listing;
  }

  private async emit(notice: ScheduleNotice | null): Promise<void> {
    const listing = await this.listNow().catch(() => null);
    if (listing) this.o.hub.emit('onSchedules', { listing, notice });
  }

  private async onRunnerEvent(e: PlanRunnerEvent): Promise<void> {
    if (e.kind !== 'schedule') return this.emit(null);
    const ev = e.event;
    if (ev.kind !== 'run' && ev.kind !== 'testing' && ev.kind !== 'waiting') return;
    if (ev.kind !== 'run') return this.emit(null);
    this.o.afterTest?.();
    const view = this.runner?.views().get(e.name);
    const label =
      view?.plan.peers.find((p) => p === `${ev.record.peer.host}:${ev.record.peer.port}` || p === `[${ev.record.peer.host}]:${ev.record.peer.port}`) ?? '';
    const now = view?.lastRuns.get(label);
    return this.emit(now ? noticeOf(e.name, now, this.previous(e.name, label, now)) : null);
  }

  private previous(name: string, peer: string, now: ScheduleLastRun): ScheduleLastRun['verdicts'] | null {
    const key = `${name}\0${peer}`;
    const before = this.seen.get(key) ?? null;
    if (now.verdicts.length) this.seen.set(key, now.verdicts);
    return before;
  }
}

/** What to tell the user about a test: it failed, its result could not be saved, or its verdict is not the one before (the first test of a peer tells nothing). */
function noticeOf(name: string, run: ScheduleLastRun, before: ScheduleLastRun['verdicts'] | null): ScheduleNotice | null {
  const base = { name, peer: run.peer, code: run.code, before: before ?? [], now: run.verdicts, resultId: run.resultId, saveError: run.saveError };
  if (run.outcome === 'failed') return { ...base, kind: 'failed' };
  if (run.saveError) return { ...base, kind: 'not-saved' };
  if (before && run.verdicts.length && JSON.stringify(before) !== JSON.stringify(run.verdicts)) return { ...base, kind: 'verdict-changed' };
  return null;
}

function sameName(plan: unknown, name: string): boolean {
  return typeof plan === 'object' && plan !== null && (plan as { name?: unknown }).name === name;
}
