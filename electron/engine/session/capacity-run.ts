/**
 * A run followed by the path's capacity (`--capacity`, "Measure the path"):
 * the user's run first, with this PC's settings untouched, then Longhaul's
 * own tuned run (capacity-plan.ts) against the same responder through the same
 * link, stopped as soon as its receiver's rate has held for the measured span.
 * The user's result gains `capacity`; without a `--path-rate` the measured
 * wire rate becomes `pathRate` (source `measured`) and the verdict and advice
 * are made again with it.
 *
 * States: main → capacity → settled. A stop during `main` ends the run as
 * always and skips the capacity; a stop during `capacity` keeps the user's
 * result whole and says the capacity was stopped.
 */
import { EventEmitter } from 'node:events';
import type { LonghaulResult } from '../../contract/result.js';
import type { CapacityInfo, CapacitySeries } from '../../contract/capacity-info.js';
import { CapacityTracker } from '../../analysis/capacity-estimate.js';
import { ArrivalSeries } from '../../analysis/arrival-series.js';
import { diagnoseResult } from '../../analysis/diagnosis.js';
import { adviseResult } from '../../analysis/advice/advise.js';
import type { LocalSettings } from '../../analysis/advice/settings-keys.js';
import { startRun, type ControllerOptions, type ControllerRun } from './controller.js';
import type { RunEvents, RunHandle } from './run-handle.js';
import { capacityInfo, planCapacity, receiverOf, type CapacityPlan } from './capacity-plan.js';
import type { RunParams } from '../../protocol/run-params.js';

/** The user's run; then the tuned run that measures the path (while it goes); then nothing. */
type State = { at: 'main' } | { at: 'capacity'; tuned: ControllerRun | null } | { at: 'settled' };

/** Starts one controller run (the same host, port, security and link as the user's; `forCapacity` drops the link's start hook). */
type StartOne = (params: RunParams, forCapacity: boolean) => ControllerRun;

export class RunWithCapacity extends EventEmitter<RunEvents> implements RunHandle {
  readonly result: Promise<LonghaulResult>;
  readonly params: RunParams;
  private state: State = { at: 'main' };
  private readonly main: ControllerRun;
  private stopRequested = false;

  constructor(
    private readonly startOne: StartOne,
    params: RunParams,
    private readonly localSettings: () => LocalSettings,
    /** The runs go through Longhaul's link emulator on this PC (its receiver's segments are loopback's, not the path's). */
    private readonly viaEmulator = false,
  ) {
    super();
    this.main = startOne(params, false);
    this.params = this.main.params;
    this.main.on('phase', (p) => this.emit('phase', p));
    this.main.on('sample', (s, side) => this.emit('sample', s, side));
    this.main.on('controlRtt', (r) => this.emit('controlRtt', r));
    this.result = this.main.result.then((r) => this.afterMain(r));
  }

  get startedAt(): Date | null {
    return this.main.startedAt;
  }

  /** Stop whichever run is going; the user's result is kept either way. */
  stop(): void {
    this.stopRequested = true;
    const s = this.state;
    if (s.at === 'main') this.main.stop('user');
    else if (s.at === 'capacity' && s.tuned) s.tuned.stop('user');
  }

  private async afterMain(r: LonghaulResult): Promise<LonghaulResult> {
    // A run that was stopped, failed or moved nothing has no path to compare with.
    if (this.stopRequested || r.total.bytes === 0 || (r.partial && r.errors.length > 0)) {
      this.state = { at: 'settled' };
      return r;
    }
    this.state = { at: 'capacity', tuned: null };
    const plan = planCapacity(r);
    this.emit('capacity', {
      state: 'measuring',
      streams: plan.params.streams,
      windowBytes: plan.params.windowBytes ?? 0,
      seconds: plan.params.seconds ?? 0,
      rttS: plan.rttS,
    });
    const info = await this.measure(plan);
    this.state = { at: 'settled' };
    attachCapacity(r, info, this.localSettings());
    this.emit('capacity', { state: 'done', info });
    return r;
  }

  private async measure(plan: CapacityPlan): Promise<CapacityInfo> {
    const began = process.hrtime.bigint();
    const seconds = (): number => Number(process.hrtime.bigint() - began) / 1e9;
    // One estimate per series (arrival-series.ts): the segments' while the receiver's OS counts them, else the in-order bytes'.
    const track = (): CapacityTracker => new CapacityTracker(plan.sliceS, plan.params.intervalSeconds, plan.rttS);
    const trackers = { 'receiver-segments': track(), 'receiver-in-order': track() };
    const arrivals = new ArrivalSeries(!this.viaEmulator);
    const series = (): CapacitySeries => (arrivals.segmentsHold ? 'receiver-segments' : 'receiver-in-order');
    const receiver = receiverOf(plan);
    let tuned: ControllerRun;
    try {
      tuned = this.startOne(plan.params, true);
    } catch (err) {
      return capacityInfo(plan, trackers[series()].final(), [], null, seconds(), (err as Error).message, series());
    }
    this.state = { at: 'capacity', tuned };
    tuned.on('sample', (s, side) => {
      if (side !== receiver) return;
      const a = arrivals.add(s);
      const inOrder = trackers['receiver-in-order'].add(s.t, a.inOrder);
      const segments = a.segments === null ? null : trackers['receiver-segments'].add(s.t, a.segments);
      // Segments shown not full by then (short sends) are not the payload: the in-order bytes go on.
      if (segments?.state === 'done' && !arrivals.segmentsFull()) arrivals.endSegments();
      // Enough seen: stop the tuned run now (its result is only read for the MSS and path MTU).
      if ((arrivals.segmentsHold ? segments : inOrder)?.state === 'done') tuned.cutNow('the path measured: the tuned run is no longer needed');
    });
    const tr = await tuned.result;
    this.state = { at: 'capacity', tuned: null };
    // A run that ended before the segments were shown full (stopped, failed) keeps the in-order bytes.
    if (!arrivals.segmentsFull()) arrivals.endSegments();
    const tracker = trackers[series()];
    const e = tracker.final();
    const stopped = this.stopRequested && e.state !== 'done' ? 'stopped by the user' : null;
    const failed = tr.errors.length && e.state !== 'done' ? tr.errors.map((x) => `${x.code}: ${x.message}`).join('; ') : null;
    return capacityInfo(plan, e, tracker.slices(), tr, seconds(), stopped ?? failed, series());
  }
}

/**
 * Record the capacity in the user's result; with no rate the user gave, the measured wire rate (payload where
 * the wire is unknown) is the path's for the verdict and the advice, made again. A floor is no path rate.
 */
export function attachCapacity(r: LonghaulResult, info: CapacityInfo, local: LocalSettings): void {
  r.capacity = info;
  const rate = info.wireBitsPerSecond ?? info.payloadBitsPerSecond;
  // An emulated link's own settings are the path the verdict knows: a measurement does not replace them.
  if (r.pathRate || r.link?.settings || rate === null || info.lowerBound) return;
  r.pathRate = { bitsPerSecond: rate, source: 'measured' };
  r.diagnosis = diagnoseResult(r, rate);
  r.advice = adviseResult(r, local);
}

/**
 * The engine's door for a run the user asked to measure the path after (`capacity`); without it, a plain
 * controller run. The tuned run dials the same responder through the same link, without the link's start hook
 * (the emulator's clock and bypass belong to the user's run).
 */
export function startRunWithCapacity(opts: ControllerOptions & { capacity?: boolean }): ControllerRun | RunWithCapacity {
  const { capacity, ...base } = opts;
  if (!capacity) return startRun(base);
  let main: ControllerRun | null = null;
  const hook = base.link;
  const startOne: StartOne = (params, forCapacity) => {
    const link = hook && forCapacity ? { record: () => hook.record(), forwardPort: hook.forwardPort?.bind(hook) } : hook;
    const run = startRun({ ...base, params, link, signal: forCapacity ? undefined : base.signal });
    main ??= run;
    return run;
  };
  const run = new RunWithCapacity(startOne, base.params, () => main?.localSettings ?? {}, hook !== undefined);
  base.signal?.addEventListener('abort', () => run.stop(), { once: true });
  return run;
}
