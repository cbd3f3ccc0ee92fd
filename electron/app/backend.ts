/**
 * The app host: implements every contract action on the plain-Node engine,
 * identically for the Electron main process and the browser-mode server.
 * Only the export "save" step differs (OS dialog vs. download), so the host
 * passes a `saveExport` function in.
 */
import { randomBytes } from 'node:crypto';
import type { ApiHandlers, EmulatorCapacityInfo, ExportOutcome, InvokeName, Invokes, PartnerKind, RunPhase, RunState, SystemInfo } from '../contract/api.js';
import type { LonghaulResult } from '../contract/result.js';
import type { ControllerRun } from '../engine/session/controller.js';
import { samePcOf } from '../engine/session/same-pc.js';
import { startRunWithCapacity, type RunWithCapacity } from '../engine/session/capacity-run.js';
import { startIperf3Run, type Iperf3ClientRun } from '../engine/iperf3/iperf3-client.js';
import { LonghaulError } from '../util/errors.js';
import { loadTrust, type LoadedTrust } from '../security/load-trust.js';
import { trustDir } from '../util/app-paths.js';
import { pairWith } from '../security/pair-client.js';
import { browse } from '../discovery/dns-sd.js';
import { checkConnection } from './connection-check.js';
import { loadCapacity, measureCapacity } from './emulator-capacity.js';
import { EventHub } from './event-hub.js';
import { exportAs, exportHistoryCsv, type ExportFile } from './exporters.js';
import { failedBeforeData } from './failed-start.js';
import { GroupHost } from './group-host.js';
import { HistoryStore } from './history-store.js';
import { RetentionKeeper } from './history-retention.js';
import { Iperf3Host } from './iperf3-host.js';
import { ControlRttLatest, sendersOf, toLiveSample } from './live-sample.js';
import { forgetPeer, pairedPeers } from './paired-peers.js';
import { parseRequest } from './request-schemas.js';
import { ResponderHost } from './responder-host.js';
import { RampHost } from './ramp-host.js';
import { ScheduleHost } from './schedule-host.js';
import { RunLink, uiLinkPresets } from './run-link.js';
import { SweepHost } from './sweep-host.js';
import { systemInfo } from './system-info.js';

/** Results of the latest runs kept in memory (each bounded by the recorder's detail rule). */
const RECENT_RESULTS = 8;

interface BackendOptions {
  mode: SystemInfo['mode'];
  dataDir: string;
  /** Electron: show the save dialog and write; browser mode: hand the file to the page. */
  saveExport: (file: ExportFile) => Promise<ExportOutcome>;
  /** Identity and paired peers (security/trust-dir.ts); default: `trustDir()` of this process. */
  trustDir?: string;
}

/** What the host keeps about the run in progress (one at a time). */
interface ActiveRun {
  runId: string;
  /** Against a Longhaul responder, or an `iperf3 -s` (same events, same result document). */
  run: ControllerRun | RunWithCapacity | Iperf3ClientRun;
  /** The delay proxy the run goes through, or null for a direct run. */
  link: RunLink | null;
  /** The last phase the run reported (a failed start is told apart by it: electron/app/failed-start.ts). */
  phase: RunPhase | null;
  /** The path's length the user stated, metres, recorded in the result (`distance`); null when not given. */
  distanceMeters: number | null;
  /** Direct to this app's own responder on loopback ("Both on this PC"): recorded in the result (`ownResponder`). */
  ownResponder: boolean;
  /** What the Run screen was given at the start, for a page that reloads during the run (`runState`). */
  asked: Pick<Invokes['startRun']['req'], 'params' | 'link'> & { partner: PartnerKind };
}

export class AppBackend {
  readonly hub = new EventHub();
  readonly history: HistoryStore;
  /** History's retention rule, applied at the start and daily: electron/app/history-retention.ts. */
  private readonly retention: RetentionKeeper;
  private readonly responder: ResponderHost;
  /** The Waiting screen's iperf3 server, beside the responder (electron/app/iperf3-host.ts). */
  private readonly iperf3: Iperf3Host;
  /** Sweeps (one at a time, never beside a single run): electron/app/sweep-host.ts. */
  readonly sweeps: SweepHost;
  /** Multi-peer runs (one at a time, never beside another run): electron/app/group-host.ts. */
  readonly groups: GroupHost;
  /** UDP ramps (one at a time, never beside another run): electron/app/ramp-host.ts. */
  readonly ramps: RampHost;
  /** This PC's kept schedules, run while the app is open (never beside the user's own tests): electron/app/schedule-host.ts. */
  readonly schedules: ScheduleHost;
  private active: ActiveRun | null = null;
  /** Set while a run is being set up (proxy starting), so a second Start is refused at once. */
  private starting = false;
  /** Set while the emulator's capacity is being measured (electron/app/emulator-capacity.ts). */
  private measuring = false;
  /** Results of this session by id, so export works before (or without) the history file. */
  private readonly recent = new Map<string, LonghaulResult>();
  /** The result id of each recently ended run, by run id (as many as `recent` keeps): a reloaded page opens it. */
  private readonly endedRuns = new Map<string, string>();
  readonly handlers: ApiHandlers;
  private trustLoad: Promise<LoadedTrust> | null = null;

  constructor(private readonly opts: BackendOptions) {
    this.history = new HistoryStore(opts.dataDir);
    this.retention = new RetentionKeeper(this.history);
    this.retention.start();
    this.responder = new ResponderHost(this.hub, this.history, () => this.trust());
    this.iperf3 = new Iperf3Host(this.hub, this.history);
    this.sweeps = new SweepHost(
      this.hub,
      opts.dataDir,
      () => this.trust(),
      () => this.active !== null || this.starting || this.measuring || this.groups.busy || this.ramps.busy || this.schedules.testing !== null,
    );
    this.groups = new GroupHost(
      this.hub,
      opts.dataDir,
      () => this.trust(),
      () => this.active !== null || this.starting || this.measuring || this.sweeps.busy || this.ramps.busy || this.schedules.testing !== null,
    );
    this.ramps = new RampHost(
      this.hub,
      opts.dataDir,
      () => this.trust(),
      () => this.active !== null || this.starting || this.measuring || this.sweeps.busy || this.groups.busy || this.schedules.testing !== null,
    );
    this.schedules = new ScheduleHost({
      hub: this.hub,
      resultsDir: this.history.dir,
      trust: () => this.trust(),
      save: (r) => this.history.trySave(r),
      busyElsewhere: () => this.busyWith(),
      // Scheduled runs pile up (3 peers every 20 s: 13,000 a day): the retention rule after each test.
      afterTest: () => void this.retention.applyNow(),
    });
    void this.schedules.start();
    this.handlers = {
      systemInfo: async () => systemInfo(opts.mode, opts.dataDir),
      checkPeer: async ({ host, port, partner }) => checkConnection(host, port, undefined, partner === 'iperf3' ? null : await this.trust()),
      startRun: async (req) => this.startRun(req),
      stopRun: async ({ runId }) => this.stopRun(runId),
      runState: async ({ runId }) => this.runState(runId),
      startResponder: async ({ port, bind }) => this.responder.start(port, bind),
      // The iperf3 server lives beside the responder: it stops when waiting stops.
      responderStatus: async () => this.responder.current(),
      stopResponder: async () => {
        await this.iperf3.stop();
        return this.responder.stop();
      },
      startIperf3Server: async ({ port }) => this.iperf3.start(port),
      stopIperf3Server: async () => this.iperf3.stop(),
      listHistory: async (filter) => this.history.list(filter),
      exportHistory: async (filter) => opts.saveExport(exportHistoryCsv((await this.history.rows(filter)).rows, filter)),
      historyRetention: async () => this.retention.view(),
      setHistoryRetention: async (rule) => this.retention.set(rule),
      previewHistoryRetention: async (rule) => this.retention.preview(rule),
      loadResult: async ({ id }) => this.load(id),
      exportResult: async ({ id, format }) => opts.saveExport(exportAs(await this.load(id), format)),
      reportText: async ({ id, format }) => exportAs(await this.load(id), format),
      linkPresets: async () => uiLinkPresets(),
      emulatorCapacity: async ({ measure }) => this.emulatorCapacity(measure),
      setBypass: async ({ runId, bypass }) => this.setBypass(runId, bypass),
      discoverResponders: async ({ seconds }) => {
        const { peers } = await this.trust();
        return browse(seconds * 1000, (fp) => peers.find(fp) !== undefined);
      },
      pairPeer: async ({ host, port, code }) => {
        const peer = await pairWith({ host, port, code, security: await this.trust() });
        return { name: peer.name, fingerprint: peer.fingerprint };
      },
      listPeers: async () => pairedPeers((await this.trust()).peers),
      forgetPeer: async ({ fingerprint }) => forgetPeer((await this.trust()).peers, fingerprint),
      sweepStart: async ({ plan }) => this.sweeps.start(plan),
      sweepStop: async ({ id }) => this.sweeps.stop(id),
      sweepResume: async ({ id }) => this.sweeps.resume(id),
      sweepGet: async ({ id }) => this.sweeps.get(id),
      sweepExport: async ({ id, format }) => opts.saveExport(await this.sweeps.exportFile(id, format)),
      listSweeps: async () => this.sweeps.list(),
      rampStart: async (req) => this.ramps.start(req),
      rampStop: async ({ id }) => this.ramps.stop(id),
      rampGet: async ({ id }) => this.ramps.get(id),
      rampExport: async ({ id, format }) => opts.saveExport(await this.ramps.exportFile(id, format)),
      listRamps: async () => this.ramps.list(),
      startGroupRun: async (req) => this.groups.start(req),
      listGroups: async () => this.groups.list(),
      loadGroup: async ({ id }) => this.groups.load(id),
      exportGroup: async ({ id, format }) => opts.saveExport(await this.groups.exportFile(id, format)),
      groupReportText: async ({ id, format }) => this.groups.exportFile(id, format),
      listSchedules: async () => this.schedules.list(),
      saveSchedule: async (req) => this.schedules.save(req),
      pauseSchedule: async ({ name, paused }) => this.schedules.setPaused(name, paused),
      setScheduleMetrics: async (setting) => this.schedules.setMetrics(setting),
      deleteSchedule: async ({ name }) => this.schedules.remove(name),
    };
  }

  /** Validate an untyped request, run its handler; errors come back as LonghaulErrors. */
  async call<K extends InvokeName>(name: K, req: unknown): Promise<Invokes[K]['res']> {
    const parsed = parseRequest(name, req);
    const handler = this.handlers[name] as (r: Invokes[K]['req']) => Promise<Invokes[K]['res']>;
    return handler(parsed);
  }

  /** Stop everything (window closed, server shutting down). Partial results are still saved. */
  async close(): Promise<void> {
    await this.schedules.close();
    await this.retention.close();
    await this.sweeps.close();
    await this.groups.close();
    await this.ramps.close();
    const a = this.active;
    if (a) {
      a.run.stop();
      await Promise.race([a.run.result, new Promise((r) => setTimeout(r, 8000).unref())]);
      await a.link?.stop();
    }
    await this.iperf3.stop();
    await this.responder.stop();
  }

  /** This installation's identity and peers, created on first use. */
  trust(): Promise<LoadedTrust> {
    this.trustLoad ??= loadTrust(this.opts.trustDir ?? trustDir());
    return this.trustLoad;
  }

  /** What uses this PC now besides the schedules (a sentence for a scheduled test that waits), or null. */
  private busyWith(): string | null {
    if (this.active || this.starting) return 'a run started in the app';
    if (this.measuring) return 'a measurement of the emulator';
    if (this.sweeps.busy) return 'a sweep';
    if (this.groups.busy) return 'a multi-peer run';
    if (this.ramps.busy) return 'a UDP ramp';
    return null;
  }

  private async startRun(req: Invokes['startRun']['req']): Promise<{ runId: string }> {
    if (this.busyWith() !== null)
      throw new LonghaulError('LH_ERR_BUSY', 'a run, a sweep, a ramp or a measurement of the emulator is already in progress: stop it or wait for its end');
    const scheduled = this.schedules.testing;
    if (scheduled !== null)
      throw new LonghaulError('LH_ERR_BUSY', `a scheduled test (${scheduled}) is running on this PC: start again when it ends (Schedules shows it)`);
    this.starting = true;
    let link: RunLink | null = null;
    try {
      const security = await this.trust();
      // Through the emulator the controller dials the local proxy, which forwards to the partner.
      if (req.link.kind === 'proxy') link = await RunLink.start({ host: req.host, port: req.port }, req.link);
      const run =
        req.partner === 'iperf3'
          ? startIperf3Run({ host: req.host, port: req.port, params: req.params, pathRateBitsPerSec: req.pathRateBitsPerSec ?? null })
          : link
            ? startRunWithCapacity({
                host: '127.0.0.1',
                port: link.port,
                params: req.params,
                link: link.hook(),
                security,
                pathRateBitsPerSec: req.pathRateBitsPerSec ?? null,
                capacity: req.capacity,
              })
            : startRunWithCapacity({
                host: req.host,
                port: req.port,
                params: req.params,
                security,
                pathRateBitsPerSec: req.pathRateBitsPerSec ?? null,
                capacity: req.capacity,
              });
      const runId = randomBytes(8).toString('hex');
      const active: ActiveRun = {
        runId,
        run,
        link,
        phase: null,
        distanceMeters: req.distanceMeters ?? null,
        ownResponder: this.isOwnResponder(req),
        asked: { params: req.params, link: req.link, partner: req.partner ?? 'longhaul' },
      };
      this.active = active;
      const senders = sendersOf(run.params);
      run.on('phase', (phase) => {
        active.phase = phase;
        this.hub.emit('onPhase', { runId, phase });
      });
      // The control channel's pings ride on the controller's samples: the Run screen's RTT where no OS gives one.
      const control = new ControlRttLatest();
      run.on('controlRtt', (r) => control.add(r));
      run.on('sample', (s, side) => this.hub.emit('onSample', control.attach(toLiveSample(runId, side, s, senders))));
      // The path's measurement after the run: a phase of its own on the Run screen (its samples are not the run's).
      run.on('capacity', (p) => {
        if (p.state !== 'measuring') return;
        active.phase = 'capacity';
        this.hub.emit('onPhase', { runId, phase: 'capacity' });
      });
      void run.result.then((result) => this.onRunEnd(runId, result));
      return { runId };
    } catch (err) {
      await link?.stop();
      throw err;
    } finally {
      this.starting = false;
    }
  }

  /**
   * Whether a run goes straight to this app's own responder (this PC's address, its port): the fact "Run again" needs,
   * since another app on this PC (a second `longhaul ui`, a CLI listener) is on a loopback address too.
   */
  private isOwnResponder(req: Invokes['startRun']['req']): boolean {
    const own = this.responder.current();
    return req.link.kind === 'direct' && req.partner !== 'iperf3' && own.state !== 'stopped' && own.port === req.port && samePcOf(req.host) === true;
  }

  /** The stored figure, or a new probe (refused during a run: both would share the CPU and the figure would be wrong). */
  private async emulatorCapacity(measure: boolean): Promise<EmulatorCapacityInfo | null> {
    if (!measure) return loadCapacity(this.opts.dataDir);
    if (this.busyWith() !== null || this.schedules.testing !== null)
      throw new LonghaulError(
        'LH_ERR_BUSY',
        'a run, a sweep, a ramp, a scheduled test or a measurement is in progress: measure the emulator when this PC is otherwise quiet',
      );
    this.measuring = true;
    try {
      return await measureCapacity(this.opts.dataDir);
    } finally {
      this.measuring = false;
    }
  }

  private async setBypass(runId: string, on: boolean): Promise<Invokes['setBypass']['res']> {
    if (this.groups.owns(runId)) throw new LonghaulError('LH_ERR_NOT_AVAILABLE', 'a group run goes direct to each peer: there is no link proxy to bypass');
    const a = this.active;
    if (!a || a.runId !== runId) throw new LonghaulError('LH_ERR_NOT_FOUND', 'no such run in progress: the bypass switch exists only during a run');
    if (!a.link) throw new LonghaulError('LH_ERR_NOT_AVAILABLE', 'this run is direct: there is no link proxy to bypass');
    return a.link.setBypass(runId, on);
  }

  private runState(runId: string): RunState {
    const a = this.active;
    if (a && a.runId === runId) return { state: 'running', ...a.asked, phase: a.phase, distanceMeters: a.distanceMeters };
    const resultId = this.endedRuns.get(runId);
    return resultId === undefined ? { state: 'unknown' } : { state: 'ended', resultId };
  }

  private stopRun(runId: string): { stopping: boolean } {
    if (this.groups.owns(runId)) return this.groups.stop(runId);
    if (!this.active || this.active.runId !== runId) return { stopping: false };
    this.active.run.stop();
    return { stopping: true };
  }

  private async onRunEnd(runId: string, result: LonghaulResult): Promise<void> {
    const link = this.active?.runId === runId ? this.active.link : null;
    const phase = this.active?.runId === runId ? this.active.phase : null;
    const distanceMeters = this.active?.runId === runId ? this.active.distanceMeters : null;
    if (distanceMeters !== null) result.distance = { meters: distanceMeters, source: 'given' };
    if (this.active?.runId === runId && this.active.ownResponder) result.ownResponder = true;
    if (this.active?.runId === runId) this.active = null;
    await link?.stop();
    // Nothing moved: not a result. Nothing goes to History; the UI goes back to the step that can fix it.
    const error = failedBeforeData(result, phase);
    if (error) {
      this.hub.emit('onRunFailed', { runId, error, phase: phase ?? 'hello' });
      return;
    }
    this.recent.set(result.id, result);
    this.endedRuns.set(runId, result.id);
    for (const id of this.endedRuns.keys()) if (this.endedRuns.size > RECENT_RESULTS) this.endedRuns.delete(id);
    // The last few results, for the UI's export and view right after a run; older ones load from History.
    for (const id of this.recent.keys()) if (this.recent.size > RECENT_RESULTS) this.recent.delete(id);
    const { savedPath, saveError } = await this.history.trySave(result);
    this.hub.emit('onRunEnd', { runId, result, savedPath, saveError });
  }

  private async load(id: string): Promise<LonghaulResult> {
    return this.recent.get(id) ?? this.history.load(id);
  }
}
