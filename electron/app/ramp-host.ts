/**
 * UDP ramps from the app (contract/udp-ramp-app.ts): at most one at a time, never beside a run or a
 * sweep, run by the same runner as `--udp-ramp` (sweep/udp-ramp.ts) against the partner of the Test
 * step: a paired Longhaul responder (through the link emulator when the Link step chose it) or an
 * `iperf3 -s`. Every ramp is one file, `<data dir>/ramps/<id>.json`, rewritten after each step, so a
 * closed window or a crash keeps the steps run (the file stays `partial`, and History says so).
 *
 *   rampStart ──► runner ──step begins / ends──► file + hub (onRampProgress) ──► every UI
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RampEntry, RampExportFormat, RampFile, RampView, StartRampRequest } from '../contract/udp-ramp-app.js';
import { rampFindings, type UdpRampOutcome } from '../contract/udp-ramp.js';
import { RAMP_TABLE_HEAD, rampAnswer, rampPlanLine, rampStepLine } from '../contract/udp-ramp-text.js';
import type { RunParams } from '../protocol/run-params.js';
import { replaceFileAtomicallyAsync } from '../report/report-file.js';
import type { LoadedTrust } from '../security/load-trust.js';
import { Iperf3Target, PeerTarget, type RunTarget } from '../sweep/run-target.js';
import { rampPlan, runUdpRamp } from '../sweep/udp-ramp.js';
import { describeError, LonghaulError } from '../util/errors.js';
import { readJsonFile } from '../util/json-file.js';
import type { EventHub } from './event-hub.js';
import type { ExportFile } from './exporters.js';

/** Ramp ids: 16 hex digits, checked before they touch a path. */
const ID = /^[0-9a-f]{16}$/;
/** Newest first, at most this many in a listing (older files stay on disk). */
const MAX_LISTED = 100;
/** How long `close()` waits for the step in flight to end and be written. */
const CLOSE_WAIT_MS = 10_000;

interface ActiveRamp {
  file: RampFile;
  current: RampView['current'];
  stop: AbortController;
  finished: Promise<void>;
}

export class RampHost {
  readonly dir: string;
  private active: ActiveRamp | null = null;
  private starting = false;
  /** Writes of the active ramp's file, in order (each waits for the one before). */
  private writing: Promise<void> = Promise.resolve();

  /** `busyElsewhere`: a run, a sweep, a group or an emulator measurement is in progress (they would share the CPU and the path). */
  constructor(
    private readonly hub: EventHub,
    dataDir: string,
    private readonly trust: () => Promise<LoadedTrust>,
    private readonly busyElsewhere: () => boolean,
  ) {
    this.dir = path.join(dataDir, 'ramps');
  }

  get busy(): boolean {
    return this.starting || this.active !== null;
  }

  async start(req: StartRampRequest): Promise<RampView> {
    if (this.busy || this.busyElsewhere())
      throw new LonghaulError('LH_ERR_BUSY', 'a run, a sweep, a ramp or a measurement of the emulator is already in progress: stop it or wait for its end');
    this.starting = true;
    try {
      const target = await this.targetOf(req);
      await mkdir(this.dir, { recursive: true });
      const now = new Date().toISOString();
      const file: RampFile = {
        schema: 'longhaul.udp-ramp/1',
        id: randomBytes(8).toString('hex'),
        startedAt: now,
        updatedAt: now,
        target: req.target,
        label: target.label,
        params: req.params,
        link: req.link,
        lossThreshold: req.lossThreshold,
        streams: req.params.streams,
        stepSeconds: req.params.seconds ?? 0,
        steps: [],
        carried: null,
        firstDropped: null,
        end: null,
        partial: true,
        error: null,
        results: [],
      };
      await this.write(file);
      const stop = new AbortController();
      const active: ActiveRamp = { file, current: null, stop, finished: Promise.resolve() };
      this.active = active;
      active.finished = this.run(active, target);
      return this.viewOf(active);
    } finally {
      this.starting = false;
    }
  }

  stop(id: string): { stopping: boolean } {
    if (this.active?.file.id !== id) return { stopping: false };
    this.active.stop.abort();
    return { stopping: true };
  }

  async get(id: string): Promise<RampView> {
    if (this.active?.file.id === id) return this.viewOf(this.active);
    return storedView(await this.read(id));
  }

  /** The stored ramps, newest first; an unreadable file is skipped (History must still open). */
  async list(): Promise<RampEntry[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => ID.test(n.slice(0, -'.json'.length)) && n.endsWith('.json'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const dated = await Promise.all(names.map(async (n) => ({ n, t: (await stat(path.join(this.dir, n)).catch(() => null))?.mtimeMs ?? 0 })));
    const out: RampEntry[] = [];
    for (const { n } of dated.sort((a, b) => b.t - a.t).slice(0, MAX_LISTED)) {
      const id = n.slice(0, -'.json'.length);
      const file = this.active?.file.id === id ? this.active.file : await this.read(id).catch(() => null);
      if (file) out.push(entryOf(file, this.active?.file.id === id));
    }
    return out.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  /** The ramp as a file to save: its own JSON (every step's whole result) or the console table with the answer. */
  async exportFile(id: string, format: RampExportFormat): Promise<ExportFile> {
    const file = this.active?.file.id === id ? this.active.file : await this.read(id);
    const stem = `longhaul-udp-ramp-${file.startedAt.replace(/[:.]/g, '-')}-${file.id}`;
    if (format === 'json') return { fileName: `${stem}.json`, mimeType: 'application/json', text: JSON.stringify(file, null, 2) + '\n' };
    return { fileName: `${stem}.log`, mimeType: 'text/plain', text: consoleText(file) };
  }

  /** Stop the ramp in progress and wait (bounded) until its last step is written. */
  async close(): Promise<void> {
    const a = this.active;
    if (!a) return;
    a.stop.abort();
    await Promise.race([a.finished, new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
  }

  /** The runner, step by step into the file and the hub; never rejects (a failure ends the ramp with its reason). */
  private async run(a: ActiveRamp, target: RunTarget): Promise<void> {
    const f = a.file;
    const link = f.link ? { link: f.link } : {};
    // The screen hears of a step once its file holds it (writes are chained, so events keep their order).
    const update = async (): Promise<void> => {
      f.updatedAt = new Date().toISOString();
      Object.assign(f, rampFindings(f.steps));
      await this.write(f);
      this.hub.emit('onRampProgress', this.viewOf(a));
    };
    let outcome: UdpRampOutcome | null = null;
    try {
      outcome = await runUdpRamp(target, f.params as RunParams, { ...rampPlan(f.lossThreshold, f.params.bitrateBitsPerSec), ...link }, a.stop.signal, {
        onStepStart: (askedBitsPerSec, index) => {
          a.current = { askedBitsPerSec, index };
          this.hub.emit('onRampProgress', this.viewOf(a));
        },
        onStep: (step, result) => {
          a.current = null;
          f.steps.push(step);
          f.results.push(result);
          void update();
        },
      });
    } catch (err) {
      const e = describeError(err);
      f.error = `${e.code}: ${e.message}`;
    }
    a.current = null;
    f.end = outcome?.end ?? 'failed';
    f.partial = false;
    this.active = null;
    await update();
  }

  private write(file: RampFile): Promise<void> {
    const text = JSON.stringify(file, null, 2) + '\n';
    const target = this.pathOf(file.id);
    // A failed write (a full disk) is said on the screen's next view; the run goes on (its steps stay in memory).
    this.writing = this.writing.then(() =>
      replaceFileAtomicallyAsync(target, text).catch((err: unknown) => {
        if (!file.error) file.error = `the ramp could not be saved to ${target}: ${describeError(err).message}`;
      }),
    );
    return this.writing;
  }

  private async targetOf(req: StartRampRequest): Promise<RunTarget> {
    if (req.target.kind === 'iperf3') return new Iperf3Target(req.target.host, req.target.port);
    return new PeerTarget(req.target.host, req.target.port, await this.trust());
  }

  private viewOf(a: ActiveRamp): RampView {
    return { ...withoutResults(a.file), running: this.active === a, current: a.current };
  }

  /** A stored ramp; a missing one is LH_ERR_NOT_FOUND, an unreadable one LH_ERR_IO. */
  private async read(id: string): Promise<RampFile> {
    const file = this.pathOf(id);
    if (!(await stat(file).catch(() => null))) throw new LonghaulError('LH_ERR_NOT_FOUND', `no stored ramp with id ${id} in ${this.dir}`);
    const value = (await readJsonFile(file).catch((err: unknown) => {
      throw new LonghaulError('LH_ERR_IO', `${file} could not be read: ${describeError(err).message}`);
    })) as Partial<RampFile> | null;
    if (value?.schema !== 'longhaul.udp-ramp/1' || value.id !== id || !Array.isArray(value.steps))
      throw new LonghaulError('LH_ERR_IO', `${file} is not a ramp this app wrote (schema longhaul.udp-ramp/1)`);
    return value as RampFile;
  }

  private pathOf(id: string): string {
    if (!ID.test(id)) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `"${id}" is not a ramp id`);
    return path.join(this.dir, `${id}.json`);
  }
}

function withoutResults(f: RampFile): Omit<RampFile, 'results'> {
  const { results: _results, ...rest } = f;
  return rest;
}

function storedView(f: RampFile): RampView {
  return { ...withoutResults(f), running: false, current: null };
}

function entryOf(f: RampFile, running: boolean): RampEntry {
  return {
    id: f.id,
    startedAt: f.startedAt,
    label: f.label,
    steps: f.steps.length,
    end: f.end,
    carriedBitsPerSec: f.carried?.receivedBitsPerSec ?? null,
    partial: f.partial && !running,
    running,
  };
}

/** The console export: the plan line, the table, the answer (as `--udp-ramp` prints them). */
function consoleText(f: RampFile): string {
  const lines = [rampPlanLine(f.label, f.streams, f.stepSeconds, f.lossThreshold), RAMP_TABLE_HEAD, ...f.steps.map(rampStepLine)];
  if (f.end) lines.push(rampAnswer({ ...f, end: f.end }));
  else lines.push('Result: none: the ramp was cut off before it ended (the app closed or stopped); the steps above are all it ran.');
  if (f.error) lines.push(`Error: ${f.error}`);
  return lines.join('\n') + '\n';
}
