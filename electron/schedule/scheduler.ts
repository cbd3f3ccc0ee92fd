/**
 * A schedule's runner (issue 39; docs/schedules.md): one round per slot (slots.ts), in each round
 * one test per peer, one after another, each taking this PC's turn (test-turns.ts, shared by every
 * schedule of the process), so no two tests share this PC or a peer. A peer busy with
 * another controller (LH_ERR_BUSY) is tried again with back-off (1, 2, 4 … s) for up to one interval
 * from the round's start (a round that began late in its slot still gets a whole interval; a round
 * that overruns makes the next one start at once, in the slot then under way: slots.ts).
 * Every result is saved to History tagged with its schedule and slot, and goes to the metrics. A
 * stop ends the schedule after the test in flight (`stopAfterTest`), or at once (`signal`: the test
 * in flight is cut short and saved as partial).
 *
 *   waiting ──slot start──► round: [turn] peer 1 ─► [turn] peer 2 ─► … ──► waiting
 *                                          └─busy─► back-off ─► again (while the slot lasts)
 */
import type { LonghaulResult } from '../contract/result.js';
import type { ScheduleRunRecord, SchedulePeer } from '../contract/schedule.js';
import type { SweepCellSettings } from '../contract/sweep.js';
import type { RunTarget } from '../sweep/run-target.js';
import { describeError } from '../util/errors.js';
import { peerLabel, type ScheduleMetrics } from './schedule-metrics.js';
import { nextRound, slotOffsetMs, type SlotClock } from './slots.js';
import { TestTurns } from './test-turns.js';

/** Back-off for a busy peer: the first wait, doubling up to the last. */
const BUSY_FIRST_MS = 1000;
const BUSY_MAX_MS = 16_000;
/** The longest single sleep while waiting for a slot, ms: a wall clock that jumps is noticed this soon. */
const SLEEP_MAX_MS = 5000;

/** What the scheduler tells its door (the CLI's log lines, the app's screen). */
export type ScheduleEvent =
  | { kind: 'waiting'; slot: number; atMs: number }
  /** A test waits for this PC: `ahead` says for what (another schedule's test, the app's run). */
  | { kind: 'queued'; peer: SchedulePeer; ahead: string }
  | { kind: 'testing'; peer: SchedulePeer; slot: number }
  | { kind: 'busy'; peer: SchedulePeer; retryInMs: number; tries: number }
  /** The clock has no slot left (a cron line's last date): the schedule ends. */
  | { kind: 'no-more-slots' }
  | { kind: 'run'; record: ScheduleRunRecord; result: LonghaulResult | null };

interface SchedulerOptions {
  name: string;
  /** The slots: an interval's or a cron line's (slots.ts). */
  clock: SlotClock;
  peers: SchedulePeer[];
  /** This PC's turn, shared by every schedule of the process (absent: this schedule's own). */
  turns?: TestTurns;
  /** Each test's settings (params, link, path), the same for every peer. */
  settings: SweepCellSettings;
  /** Measure the path after each test (`--capacity`: Longhaul's own tuned run). */
  capacity?: boolean;
  /** The peer's target: a paired responder (sweep/run-target.ts). */
  targetOf: (peer: SchedulePeer) => RunTarget;
  /** Save to History; never throws (HistoryStore.trySave). */
  save: (result: LonghaulResult) => Promise<{ savedPath: string | null; saveError: string | null }>;
  metrics: ScheduleMetrics;
  hostname: string;
  onEvent: (e: ScheduleEvent) => void;
  /** Stop after this many rounds (tests, `--rounds`); absent: until stopped. */
  maxRounds?: number;
  /** Each peer's last slot run before a restart (schedule-state.ts keeps them): a slot is never run twice for a peer. */
  lastSlots?: ReadonlyMap<string, number>;
  /** After every test, the peers' last slots, to keep (awaited before the next test). */
  onTested?: (lastSlots: ReadonlyMap<string, number>) => Promise<void>;
  now?: () => number;
}

export class Scheduler {
  private stopping = false;
  private wake: (() => void) | null = null;
  /** Peer label → the last slot its test ran in. */
  private readonly lastSlots: Map<string, number>;
  private readonly now: () => number;
  private readonly turns: TestTurns;
  readonly offsetMs: number;
  /** When the next round is due (epoch ms) while waiting for it, else null. */
  nextAtMs: number | null = null;
  private shownSlot: number | null = null;

  constructor(private readonly o: SchedulerOptions) {
    this.now = o.now ?? Date.now;
    this.lastSlots = new Map(o.lastSlots ?? []);
    this.turns = o.turns ?? new TestTurns();
    this.offsetMs = slotOffsetMs(o.clock.everyMs, o.name, o.hostname);
  }

  /** The gap from `slot` to the next one, on the metrics (once per slot). */
  private showInterval(slot: number): void {
    if (this.shownSlot === slot) return;
    this.shownSlot = slot;
    const next = this.o.clock.after(slot);
    this.o.metrics.setInterval(this.o.name, next === null ? null : (this.o.clock.startMs(next) - this.o.clock.startMs(slot)) / 1000);
  }

  /** End after the test in flight (or now, while waiting for a slot). */
  stopAfterTest(): void {
    this.stopping = true;
    this.wake?.();
  }

  private get lastSlot(): number | null {
    return lastRoundSlot(this.o.peers, this.lastSlots);
  }

  /** Run rounds until stopped, `signal` aborts, or `maxRounds`; resolves with the last slot every peer ran. */
  async run(signal: AbortSignal): Promise<number | null> {
    const abort = (): void => this.stopAfterTest();
    signal.addEventListener('abort', abort, { once: true });
    try {
      let rounds = 0;
      while (!this.stopping && (this.o.maxRounds === undefined || rounds < this.o.maxRounds)) {
        const round = nextRound(this.now(), this.o.clock, this.offsetMs, this.lastSlot);
        if (!round) {
          this.o.onEvent({ kind: 'no-more-slots' });
          break;
        }
        const { slot, atMs } = round;
        this.showInterval(slot);
        if (atMs > this.now()) {
          if (this.nextAtMs !== atMs) this.o.onEvent({ kind: 'waiting', slot, atMs });
          this.nextAtMs = atMs;
          // Then the round is worked out again: a wall clock stepped (NTP, a laptop that slept) is
          // noticed within SLEEP_MAX_MS, and the slot due then is the one run (slots.ts).
          await this.sleep(Math.min(SLEEP_MAX_MS, atMs - this.now()));
          continue;
        }
        this.nextAtMs = null;
        const retryUntilMs = this.now() + this.o.clock.everyMs;
        for (const peer of this.o.peers) {
          if (this.stopping) break;
          // A peer that ran this slot before a restart is not run again in it.
          if ((this.lastSlots.get(peerLabel(peer)) ?? -Infinity) >= slot) continue;
          await this.test(peer, slot, retryUntilMs, signal);
        }
        rounds++;
      }
      return this.lastSlot;
    } finally {
      // Not running: no interval, so no alert calls it late (paused, deleted, stopped).
      this.o.metrics.setInterval(this.o.name, null);
      signal.removeEventListener('abort', abort);
    }
  }

  /** One peer's test in this slot: tried again while the peer is busy, until `retryUntilMs`. */
  private async test(peer: SchedulePeer, slot: number, retryUntilMs: number, signal: AbortSignal): Promise<void> {
    const release = await this.turns.take(
      `${this.o.name} → ${peerLabel(peer)}`,
      (ahead) => this.o.onEvent({ kind: 'queued', peer, ahead }),
      () => this.stopping,
    );
    if (!release) return;
    try {
      await this.testInTurn(peer, slot, retryUntilMs, signal);
    } finally {
      release();
    }
  }

  private async testInTurn(peer: SchedulePeer, slot: number, retryUntilMs: number, signal: AbortSignal): Promise<void> {
    this.o.onEvent({ kind: 'testing', peer, slot });
    const startedAt = new Date(this.now()).toISOString();
    let tries = 0;
    let waitMs = BUSY_FIRST_MS;
    for (;;) {
      tries++;
      const { result, code } = await this.once(peer, signal);
      const busy = code === 'LH_ERR_BUSY' && (!result || result.total.bytes === 0);
      if (busy && !this.stopping && this.now() + waitMs < retryUntilMs) {
        this.o.onEvent({ kind: 'busy', peer, retryInMs: waitMs, tries });
        await this.sleep(waitMs);
        waitMs = Math.min(BUSY_MAX_MS, waitMs * 2);
        if (!this.stopping) continue;
      }
      const tagged = result ? { ...result, schedule: { name: this.o.name, slot } } : null;
      const saved = tagged ? await this.o.save(tagged) : { savedPath: null, saveError: null };
      // Kept right after the result (before anything is said of it): a restart then neither runs it again nor misses it.
      this.lastSlots.set(peerLabel(peer), slot);
      await this.o.onTested?.(this.lastSlots);
      const record: ScheduleRunRecord = {
        schedule: this.o.name,
        slot,
        peer,
        startedAt,
        endedAt: new Date(this.now()).toISOString(),
        outcome: !result || result.total.bytes === 0 ? 'failed' : result.partial ? 'partial' : 'ok',
        code,
        savedPath: saved.savedPath,
        saveError: saved.saveError,
        tries,
      };
      this.o.metrics.record(record, tagged);
      this.o.onEvent({ kind: 'run', record, result: tagged });
      return;
    }
  }

  /** Open the peer's target, run the settings once, close; the result and its first error's code (null: complete). */
  private async once(peer: SchedulePeer, signal: AbortSignal): Promise<{ result: LonghaulResult | null; code: string | null }> {
    const target = this.o.targetOf(peer);
    // A signal of its own per test: what a run hangs on it goes with the run (the schedule's signal lives for days).
    const test = new AbortController();
    const relay = (): void => test.abort();
    signal.addEventListener('abort', relay, { once: true });
    try {
      await target.open();
      const result = await target.run(this.o.settings, test.signal, this.o.capacity ? { measure: true } : null);
      const code = result.partial || result.total.bytes === 0 ? (result.errors[0]?.code ?? 'LH_ERR_STOPPED') : null;
      return { result, code };
    } catch (err) {
      return { result: null, code: describeError(err).code };
    } finally {
      signal.removeEventListener('abort', relay);
      await target.close();
    }
  }

  /** Wait `ms` (bounded by the caller's slot arithmetic), woken early by a stop. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}

/** The slot every peer has run (null while one has run none): the next round is after it. */
export function lastRoundSlot(peers: readonly SchedulePeer[], lastSlots: ReadonlyMap<string, number>): number | null {
  const slots = peers.map((p) => lastSlots.get(peerLabel(p)));
  return slots.some((s) => s === undefined) ? null : Math.min(...(slots as number[]));
}
