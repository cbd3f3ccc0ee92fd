/**
 * Multi-peer runs from the app: one `GroupRun` (engine/group/group-run.ts) at a time,
 * never beside a single run, a sweep or a measurement. Its peers' phases and
 * samples go out on the single run's channels with the peer's index; its end
 * is `onGroupEnd` with the `longhaul.group/1` document, stored in History's
 * groups folder (group-store.ts) and exported with the group formatters.
 *
 *   startGroupRun ──► GroupRun ──phase/sample (+ peer)──► hub ──► every UI
 *                        └──result──► groups/<startedAt>_<id>.json ──► onGroupEnd
 */
import { randomBytes } from 'node:crypto';
import type { GroupExportFormat, GroupListing, StartGroupRunRequest } from '../contract/group-app.js';
import type { LonghaulGroupResult } from '../contract/group.js';
import { startGroupRun, type GroupRun } from '../engine/group/group-run.js';
import type { LoadedTrust } from '../security/load-trust.js';
import { LonghaulError } from '../util/errors.js';
import type { EventHub } from './event-hub.js';
import { exportGroupAs, type ExportFile } from './exporters.js';
import { GroupStore } from './group-store.js';
import { sendersOf, toLiveSample } from './live-sample.js';

/** How long `close()` waits for the peers' results after stopping them. */
const CLOSE_WAIT_MS = 8000;

export class GroupHost {
  readonly store: GroupStore;
  private active: { runId: string; group: GroupRun } | null = null;
  /** Set while the trust is loaded, so a second Start is refused at once. */
  private starting = false;
  /** Groups of this session by id, so export works before (or without) the History file. */
  private readonly recent = new Map<string, LonghaulGroupResult>();

  /** `busyElsewhere`: a single run, a sweep or an emulator measurement is in progress. */
  constructor(
    private readonly hub: EventHub,
    dataDir: string,
    private readonly trust: () => Promise<LoadedTrust>,
    private readonly busyElsewhere: () => boolean,
  ) {
    this.store = new GroupStore(dataDir);
  }

  /** True while a group is starting or running. */
  get busy(): boolean {
    return this.starting || this.active !== null;
  }

  async start(req: StartGroupRunRequest): Promise<{ runId: string }> {
    if (this.busy || this.busyElsewhere())
      throw new LonghaulError('LH_ERR_BUSY', 'a run, a sweep or a measurement of the emulator is already in progress: stop it or wait for its end');
    this.starting = true;
    try {
      const security = await this.trust();
      const group = startGroupRun({ peers: req.peers.map((p) => ({ host: p.host, port: p.port, security })), params: req.params });
      const runId = randomBytes(8).toString('hex');
      this.active = { runId, group };
      const senders = sendersOf(req.params);
      group.on('phase', (peer, phase) => {
        const hostname = group.runs[peer]?.responder.hostname;
        this.hub.emit('onPhase', { runId, phase, peer, ...(hostname && hostname !== 'unknown' ? { hostname } : {}) });
      });
      group.on('sample', (peer, s, side) => this.hub.emit('onSample', { ...toLiveSample(runId, side, s, senders), peer }));
      void group.result.then((g) => this.onEnd(runId, g));
      return { runId };
    } finally {
      this.starting = false;
    }
  }

  /** Stop the group with this run id (every peer; what was measured is kept). */
  stop(runId: string): { stopping: boolean } {
    if (this.active?.runId !== runId) return { stopping: false };
    this.active.group.stop();
    return { stopping: true };
  }

  /** True when `runId` is the group in progress. */
  owns(runId: string): boolean {
    return this.active?.runId === runId;
  }

  list(): Promise<GroupListing> {
    return this.store.list();
  }

  async load(id: string): Promise<LonghaulGroupResult> {
    return this.recent.get(id) ?? this.store.load(id);
  }

  async exportFile(id: string, format: GroupExportFormat): Promise<ExportFile> {
    return exportGroupAs(await this.load(id), format);
  }

  /** Stop the group in progress and wait (bounded) for its peers' results, which are still saved. */
  async close(): Promise<void> {
    const a = this.active;
    if (!a) return;
    a.group.stop();
    await Promise.race([a.group.result, new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
  }

  private async onEnd(runId: string, group: LonghaulGroupResult): Promise<void> {
    this.recent.set(group.id, group);
    const saved = await this.store.trySave(group);
    if (this.active?.runId === runId) this.active = null;
    this.hub.emit('onGroupEnd', { runId, group, ...saved });
  }
}
