/**
 * The app host: implements every contract action on the plain-Node engine,
 * identically for the Electron main process and the browser-mode server.
 * Only the export "save" step differs (OS dialog vs. download), so the host
 * passes a `saveExport` function in.
 */
import { randomBytes } from 'node:crypto';
import type { ApiHandlers, ExportOutcome, InvokeName, Invokes, SystemInfo } from '../contract/api.js';
import type { LonghaulResult } from '../contract/result.js';
import { startRun, type ControllerRun } from '../engine/controller.js';
import { LonghaulError, describeError } from '../util/errors.js';
import { loadTrust, type LoadedTrust } from '../security/load-trust.js';
import { trustDir } from '../security/trust-dir.js';
import { pairWith } from '../security/pair-client.js';
import { browse } from '../discovery/dns-sd.js';
import { checkConnection } from './connection-check.js';
import { EventHub } from './event-hub.js';
import { exportAs, type ExportFile } from './exporters.js';
import { HistoryStore } from './history-store.js';
import { parseRequest } from './request-schemas.js';
import { ResponderHost } from './responder-host.js';
import { systemInfo } from './system-info.js';

export interface BackendOptions {
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
  run: ControllerRun;
}

export class AppBackend {
  readonly hub = new EventHub();
  readonly history: HistoryStore;
  private readonly responder: ResponderHost;
  private active: ActiveRun | null = null;
  /** Results of this session by id, so export works before (or without) the history file. */
  private readonly recent = new Map<string, LonghaulResult>();
  readonly handlers: ApiHandlers;
  private trustLoad: Promise<LoadedTrust> | null = null;

  constructor(private readonly opts: BackendOptions) {
    this.history = new HistoryStore(opts.dataDir);
    this.responder = new ResponderHost(this.hub, this.history, () => this.trust());
    this.handlers = {
      systemInfo: async () => systemInfo(opts.mode, opts.dataDir),
      checkPeer: async ({ host, port }) => checkConnection(host, port),
      startRun: async (req) => this.startRun(req),
      stopRun: async ({ runId }) => this.stopRun(runId),
      startResponder: async ({ port, bind }) => this.responder.start(port, bind),
      stopResponder: async () => this.responder.stop(),
      listHistory: async () => this.history.list(),
      loadResult: async ({ id }) => this.load(id),
      exportResult: async ({ id, format }) => opts.saveExport(exportAs(await this.load(id), format)),
      discoverResponders: async ({ seconds }) => {
        const { peers } = await this.trust();
        return browse(seconds * 1000, (fp) => peers.find(fp) !== undefined);
      },
      pairPeer: async ({ host, port, code }) => {
        const peer = await pairWith({ host, port, code, security: await this.trust() });
        return { name: peer.name, fingerprint: peer.fingerprint };
      },
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
    const a = this.active;
    if (a) {
      a.run.stop('user');
      await Promise.race([a.run.result, new Promise((r) => setTimeout(r, 8000))]);
    }
    await this.responder.stop();
  }

  /** This installation's identity and peers, created on first use. */
  trust(): Promise<LoadedTrust> {
    this.trustLoad ??= loadTrust(this.opts.trustDir ?? trustDir());
    return this.trustLoad;
  }

  private async startRun(req: Invokes['startRun']['req']): Promise<{ runId: string }> {
    if (req.link.kind !== 'direct') {
      throw new LonghaulError('LH_ERR_NOT_AVAILABLE', 'the link emulator (delay proxy) is not available in this build; choose a direct link');
    }
    if (this.active) throw new LonghaulError('LH_ERR_BUSY', 'a run is already in progress: stop it or wait for its end');
    const security = await this.trust();
    if (this.active) throw new LonghaulError('LH_ERR_BUSY', 'a run is already in progress: stop it or wait for its end');
    const run = startRun({ host: req.host, port: req.port, params: req.params, security });
    const runId = randomBytes(8).toString('hex');
    this.active = { runId, run };
    run.on('phase', (phase) => this.hub.emit('onPhase', { runId, phase }));
    run.on('sample', (s, side) => this.hub.emit('onSample', { runId, side, index: s.index, t: s.t, final: s.final, streams: s.streams }));
    void run.result.then((result) => this.onRunEnd(runId, result));
    return { runId };
  }

  private stopRun(runId: string): { stopping: boolean } {
    if (!this.active || this.active.runId !== runId) return { stopping: false };
    this.active.run.stop('user');
    return { stopping: true };
  }

  private async onRunEnd(runId: string, result: LonghaulResult): Promise<void> {
    if (this.active?.runId === runId) this.active = null;
    this.recent.set(result.id, result);
    let savedPath: string | null = null;
    let saveError: string | null = null;
    try {
      savedPath = await this.history.save(result);
    } catch (err) {
      saveError = describeError(err).message;
    }
    this.hub.emit('onRunEnd', { runId, result, savedPath, saveError });
  }

  private async load(id: string): Promise<LonghaulResult> {
    return this.recent.get(id) ?? this.history.load(id);
  }
}
