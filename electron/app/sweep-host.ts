/**
 * Sweeps from the app: at most one at a time, run by the sweep runner
 * (electron/sweep/) against a responder this PC starts for itself
 * ("this PC") or the paired partner, as the Test screen's runs go. Every
 * sweep is one `longhaul.sweep/1` file in `<data dir>/sweeps/<id>.json`,
 * rewritten by the runner after every run, so a closed window or a crash
 * loses at most the run in flight and History can offer a Resume.
 *
 *   sweepStart ──► runner (new file) ──progress──► hub ──► every UI
 *   sweepResume ─► runner (file read back: only the runs still owed)
 */
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SweepEntry, SweepExportFormat, SweepView } from '../contract/sweep-app.js';
import type { SweepFile, SweepPlan } from '../contract/sweep.js';
import { expandPlan, runKey } from '../contract/sweep-plan.js';
import type { LoadedTrust } from '../security/load-trust.js';
import { LoopbackTarget, PeerTarget, type RunTarget } from '../sweep/run-target.js';
import { sweepExportFile } from '../sweep/sweep-report.js';
import { newSweepFile, readSweepFile } from '../sweep/sweep-file.js';
import { headline, SweepRunner } from '../sweep/sweep-runner.js';
import { LonghaulError } from '../util/errors.js';
import type { EventHub } from './event-hub.js';
import type { ExportFile } from './exporters.js';

/** Sweep ids are the runner's UUIDs: checked before they touch a path, so a request cannot walk out of the folder. */
const ID = /^[0-9a-f-]{8,64}$/;
/** Newest first, at most this many in a listing (older files stay on disk). */
const MAX_SWEEPS_LISTED = 100;
/** How long `close()` waits for the run in flight to end and be written. */
const CLOSE_WAIT_MS = 10_000;

interface ActiveSweep {
  id: string;
  runner: SweepRunner;
  finished: Promise<SweepFile>;
}

export class SweepHost {
  readonly dir: string;
  private active: ActiveSweep | null = null;
  /** Set while a sweep is being set up, so a second Start is refused at once. */
  private starting = false;

  /**
   * `busyElsewhere`: a single run or an emulator measurement is in progress
   * (both would share the CPU and the link with the sweep and skew both).
   */
  constructor(
    private readonly hub: EventHub,
    dataDir: string,
    private readonly trust: () => Promise<LoadedTrust>,
    private readonly busyElsewhere: () => boolean,
  ) {
    this.dir = path.join(dataDir, 'sweeps');
  }

  /** True while a sweep is starting or running. */
  get busy(): boolean {
    return this.starting || this.active !== null;
  }

  async start(plan: SweepPlan): Promise<SweepView> {
    return this.launch(async () => newSweepFile(plan));
  }

  /** Run what an interrupted sweep still owes, into its own file. */
  async resume(id: string): Promise<SweepView> {
    return this.launch(async () => {
      const file = await this.read(id);
      if (file.complete) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `sweep ${id} is complete: every run of its plan is done, nothing to resume`);
      return file;
    });
  }

  stop(id: string): { stopping: boolean } {
    if (this.active?.id !== id) return { stopping: false };
    this.active.runner.stop();
    return { stopping: true };
  }

  async get(id: string): Promise<SweepView> {
    if (this.active?.id === id) return viewOf(this.active.runner.file, true);
    return viewOf(await this.read(id), false);
  }

  /** The stored sweeps, newest first; an unreadable file is skipped (History must still open). */
  async list(): Promise<SweepEntry[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => n.endsWith('.json'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const dated = await Promise.all(names.map(async (n) => ({ n, t: (await stat(path.join(this.dir, n)).catch(() => null))?.mtimeMs ?? 0 })));
    const newest = dated.sort((a, b) => b.t - a.t).slice(0, MAX_SWEEPS_LISTED);
    const out: SweepEntry[] = [];
    for (const { n } of newest) {
      const id = n.slice(0, -'.json'.length);
      const file = this.active?.id === id ? this.active.runner.file : await readSweepFile(path.join(this.dir, n)).catch(() => null);
      if (file) out.push(entryOf(file, this.active?.id === file.id));
    }
    return out.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  /** The sweep as a file to save: its own JSON (every run's whole result), the runner's CSV, or the HTML report. */
  async exportFile(id: string, format: SweepExportFormat): Promise<ExportFile> {
    return sweepExportFile(this.active?.id === id ? this.active.runner.file : await this.read(id), format);
  }

  /** Stop the sweep in progress and wait (bounded) until its last run is written. */
  async close(): Promise<void> {
    const a = this.active;
    if (!a) return;
    a.runner.stop();
    await Promise.race([a.finished, new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
  }

  private async launch(fileOf: () => Promise<SweepFile>): Promise<SweepView> {
    if (this.busy || this.busyElsewhere())
      throw new LonghaulError('LH_ERR_BUSY', 'a sweep, a run or a measurement of the emulator is already in progress: stop it or wait for its end');
    this.starting = true;
    try {
      const file = await fileOf();
      await mkdir(this.dir, { recursive: true });
      const runner = new SweepRunner({ file, jsonPath: this.pathOf(file.id), target: await this.targetOf(file.plan) });
      const id = file.id;
      runner.on('progress', (progress) => this.hub.emit('onSweepProgress', { id, progress }));
      // start() never rejects (a failure stops the sweep with reason `error`, reported as progress).
      const finished = runner.start().finally(() => {
        if (this.active?.id === id) this.active = null;
      });
      this.active = { id, runner, finished };
      return viewOf(runner.file, true);
    } finally {
      this.starting = false;
    }
  }

  private async targetOf(plan: SweepPlan): Promise<RunTarget> {
    const trust = await this.trust();
    return plan.target.kind === 'loopback' ? new LoopbackTarget(trust) : new PeerTarget(plan.target.host, plan.target.port, trust);
  }

  /** A stored sweep; a missing one is LH_ERR_NOT_FOUND (the runner's reader says LH_ERR_IO for every read failure). */
  private async read(id: string): Promise<SweepFile> {
    const file = this.pathOf(id);
    if (!(await stat(file).catch(() => null))) throw new LonghaulError('LH_ERR_NOT_FOUND', `no stored sweep with id ${id} in ${this.dir}`);
    return readSweepFile(file);
  }

  private pathOf(id: string): string {
    if (!ID.test(id)) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `"${id}" is not a sweep id`);
    return path.join(this.dir, `${id}.json`);
  }
}

/** The file without each run's full result, for the screen. */
function viewOf(file: SweepFile, running: boolean): SweepView {
  return { ...file, runs: file.runs.map(headline), running };
}

function entryOf(file: SweepFile, running: boolean): SweepEntry {
  const cells = expandPlan(file.plan).length;
  return {
    id: file.id,
    title: file.title,
    startedAt: file.startedAt,
    updatedAt: file.updatedAt,
    target: file.plan.target.kind,
    partner: file.plan.target.kind === 'peer' ? `${file.plan.target.host}:${file.plan.target.port}` : null,
    swept: file.plan.dimensions.filter((d) => d.values.length > 1).map((d) => d.name),
    cells,
    runsDone: new Set(file.runs.filter((r) => r.status === 'done').map(runKey)).size,
    runsPlanned: cells * file.plan.repeat,
    complete: file.complete,
    running,
  };
}
