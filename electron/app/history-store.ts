/**
 * History: one `longhaul.result/1` JSON file per run in the results folder.
 * File names are `<startedAt>_<id>.json`; ids are the run's hex id, checked
 * before they touch a path so a request cannot walk out of the folder.
 *
 * Listing, filtering, exporting and pruning read each file's head once per store and keep a
 * small summary of it: a result is written once, under a new name, and never rewritten, so the
 * app filters a folder of tens of thousands of runs without reading them again. The start in a
 * file's name narrows a time range before any file is opened. A run stored by both ends on
 * this PC (the controller's file and the local responder's, one id) is one run everywhere.
 */
import { lstat, mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { HistoryEntry, HistoryFilter, HistoryListing, HistoryRetention, PruneSummary } from '../contract/history.js';
import type { LonghaulResult } from '../contract/result.js';
import { historyRows, type HistoryRow } from '../report/history-csv.js';
import { readResultFile, readResultHead, writeResultFile, type ResultHead } from '../report/result-file.js';
import { describeError, LonghaulError } from '../util/errors.js';
import { shownRate } from '../contract/partial-text.js';
import { APP_FILES, fileInFolder, LIST_READ_MAX_BYTES } from './history-files.js';

const ID = /^[0-9a-f]{8,64}$/;
/** The name save() gives: the start with `:` and `.` written as `-`, then the id. */
const RESULT_NAME = /^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})(?:-(\d{1,9}))?Z_([0-9a-f]{8,64})\.json$/;
/** Newest first, at most this many in a listing (the rest stay on disk, are counted and exported). */
const MAX_LISTED = 200;
/** Heads read at once: each read waits on the disk and the thread pool far more than on the CPU. */
const READ_CONCURRENCY = 8;
/** Summaries kept at most (about a kilobyte each); the files beyond are read again when needed. */
const MAX_CACHED = 100_000;
const DAY_MS = 86_400_000;

type Unreadable = { fileName: string; reason: string };

/** A file of the folder as its name tells it: the run's id and start, or nulls for a name save() did not give. */
interface NamedFile {
  name: string;
  id: string | null;
  startedMs: number | null;
}

/** One run: its readable files (newest first), the entry that speaks for it (the controller's), and its start. */
interface StoredRun {
  id: string;
  files: string[];
  entry: HistoryEntry;
  startedMs: number;
}

/** Runs that started at or after `fromMs` and before `toMs` (null: open). */
interface TimeRange {
  fromMs: number | null;
  toMs: number | null;
}

interface Scan {
  /** Newest first. */
  runs: StoredRun[];
  unreadable: Unreadable[];
  /** Runs in the whole folder (not only the range). */
  total: number;
  files: NamedFile[];
}

/** What a pruning removed, run by run, beside its summary. */
export interface PruneOutcome {
  summary: PruneSummary;
  removed: { fileName: string; startedAt: string; schedule: { name: string; slot: number } | null }[];
}

export class HistoryStore {
  /** Summaries by file name (see the file's comment); dropped when the file goes. */
  private readonly cache = new Map<string, HistoryEntry>();

  constructor(readonly dir: string) {}

  /** Save, never throwing: the path, or why it could not be saved (a run's end must still be reported). */
  async trySave(result: LonghaulResult): Promise<{ savedPath: string | null; saveError: string | null }> {
    try {
      return { savedPath: await this.save(result), saveError: null };
    } catch (err) {
      return { savedPath: null, saveError: describeError(err).message };
    }
  }

  async save(result: LonghaulResult): Promise<string> {
    if (!ID.test(result.id)) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `result id "${result.id}" is not a hex id`);
    await mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${result.startedAt.replace(/[:.]/g, '-')}_${result.id}.json`);
    // Written in pieces to a temporary name, then renamed: a reader never sees half a file.
    await writeResultFile(file, result);
    return file;
  }

  /**
   * The runs a filter picks, newest first, at most MAX_LISTED of them, with how many matched and how many the
   * folder holds; a file that is not a valid result is named with why, never fatal to the list. Only each file's
   * head is read and checked (not its streams and intervals, which `load` checks), and only from regular files in
   * the folder (history-files.ts), at most LIST_READ_MAX_BYTES of each. The cap (`limit`) applies after the filter.
   */
  async list(filter: HistoryFilter | null = null, limit = MAX_LISTED): Promise<HistoryListing> {
    const f = filter ?? {};
    const scan = await this.scan(rangeOf(f));
    const matched = scan.runs.filter((r) => scheduleMatches(r.entry, f));
    const names = new Set(scan.runs.flatMap((r) => (r.entry.schedule ? [r.entry.schedule.name] : [])));
    // The schedule asked for stays offered even when the range holds none of its runs.
    if (typeof f.schedule === 'string') names.add(f.schedule);
    return {
      entries: matched.slice(0, limit).map((r) => r.entry),
      unreadable: scan.unreadable,
      matched: matched.length,
      total: scan.total,
      scheduleNames: [...names].sort((a, b) => a.localeCompare(b)),
    };
  }

  /**
   * Every run the filter picks (not only the listed ones; the newest `limit` of them), oldest first, as History's
   * CSV rows (report/history-csv.ts) from the file that speaks for each run. Files gone or unreadable since the
   * listing are named.
   */
  async rows(filter: HistoryFilter | null = null, limit = Infinity): Promise<{ rows: HistoryRow[]; runs: number; unreadable: Unreadable[] }> {
    const f = filter ?? {};
    const scan = await this.scan(rangeOf(f));
    const runs = scan.runs
      .filter((r) => scheduleMatches(r.entry, f))
      .slice(0, limit)
      .reverse();
    const unreadable = [...scan.unreadable];
    const heads = await inPool(runs, READ_CONCURRENCY, async (r) => {
      try {
        return await this.head(r.entry.fileName);
      } catch (err) {
        unreadable.push({ fileName: r.entry.fileName, reason: describeError(err).message });
        return null;
      }
    });
    const rows = heads.flatMap((h, i) => {
      if (!h) return [];
      // The local responder's file of a run may lack the tag its controller's has.
      const schedule = runs[i]?.entry.schedule;
      return historyRows(schedule ? { ...h, schedule } : h);
    });
    return { rows, runs: runs.length, unreadable };
  }

  /** The stored result with this id: the controller's where both ends stored the run here ("Both on this PC"). */
  async load(id: string): Promise<LonghaulResult> {
    if (!ID.test(id)) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `"${id}" is not a result id`);
    const names = (await this.fileNames()).filter((n) => n.endsWith(`_${id}.json`));
    if (names.length === 0) throw new LonghaulError('LH_ERR_NOT_FOUND', `no stored result with id ${id} in ${this.dir}`);
    const results = await Promise.all(names.map((n) => this.read(n)));
    return results.find((r) => r.writtenBy === 'controller') ?? (results[0] as LonghaulResult);
  }

  /**
   * Remove the runs a retention rule says to (or, with `dryRun`, say which it would). A run goes with all its
   * files; a file that cannot be read, or is not a regular file, is left alone and named, and so is one the OS
   * refused to remove. Only files of this folder that History lists are ever removed (never the app's own files,
   * never what a link points to). Rules: contract/history.ts.
   */
  async prune(rule: HistoryRetention, opts: { dryRun?: boolean; now?: Date } = {}): Promise<PruneOutcome> {
    const now = opts.now ?? new Date();
    const dryRun = opts.dryRun === true;
    const cutoffMs = rule.maxAgeDays === null ? null : now.getTime() - rule.maxAgeDays * DAY_MS;
    const summary = (runs: number, files: number, kept: number, leftAlone: Unreadable[]): PruneSummary => ({
      at: now.toISOString(),
      dryRun,
      retention: rule,
      removedRuns: runs,
      removedFiles: files,
      keptRuns: kept,
      leftAlone,
    });
    if (cutoffMs === null && rule.maxRuns === null) {
      const total = countRuns((await this.fileNames()).map(namedFile), []);
      return { summary: summary(0, 0, total, []), removed: [] };
    }
    // An age alone concerns only the files named older than it; a count needs every run in scope.
    const scan = await this.scan(rule.maxRuns === null ? { fromMs: null, toMs: cutoffMs } : { fromMs: null, toMs: null });
    const inScope = scan.runs.filter((r) => rule.scope === 'all' || r.entry.schedule !== null);
    const doomed = new Set<StoredRun>();
    if (cutoffMs !== null) for (const r of inScope) if (r.startedMs < cutoffMs) doomed.add(r);
    if (rule.maxRuns !== null) for (const r of inScope.slice(rule.maxRuns)) doomed.add(r);
    const leftAlone = [...scan.unreadable];
    const removed: PruneOutcome['removed'] = [];
    let removedRuns = 0;
    for (const run of [...doomed].sort((a, b) => a.startedMs - b.startedMs)) {
      let any = false;
      for (const name of await this.filesOfRun(run, scan.files, leftAlone)) {
        const why = await this.remove(name, dryRun);
        if (why === null) {
          any = true;
          removed.push({ fileName: name, startedAt: run.entry.startedAt, schedule: run.entry.schedule });
        } else if (why !== 'gone') leftAlone.push({ fileName: name, reason: why });
      }
      if (any) removedRuns++;
    }
    return { summary: summary(removedRuns, removed.length, scan.total - removedRuns, leftAlone), removed };
  }

  /** A run's files to remove: those read, and any other file named with its id (read first: an unreadable one is left alone). */
  private async filesOfRun(run: StoredRun, files: NamedFile[], leftAlone: Unreadable[]): Promise<string[]> {
    const out = [...run.files];
    for (const f of files) {
      if (f.id !== run.id || out.includes(f.name)) continue;
      const e = await this.entry(f.name);
      if ('reason' in e) {
        if (!leftAlone.some((u) => u.fileName === f.name)) leftAlone.push({ fileName: f.name, reason: e.reason });
      } else if (e.id === run.id) out.push(f.name);
    }
    return out;
  }

  /** Remove one file of the folder: null when removed (or, in a dry run, removable), 'gone' when it already was, else why not. */
  private async remove(name: string, dryRun: boolean): Promise<string | null> {
    const file = path.join(this.dir, name);
    try {
      // A link is left alone: removing it would be right, but it is not what History lists as this run.
      const st = await lstat(file);
      if (!st.isFile()) return 'not a regular file: left alone';
      if (!dryRun) await unlink(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
      return `could not be removed: ${describeError(err).message}`;
    }
    if (!dryRun) this.cache.delete(name);
    return null;
  }

  /** The folder's files in a time range, read (from the cache where it can), grouped into runs. */
  private async scan(range: TimeRange): Promise<Scan> {
    const files = (await this.fileNames()).map(namedFile);
    const present = new Set(files.map((f) => f.name));
    for (const name of this.cache.keys()) if (!present.has(name)) this.cache.delete(name);
    // A name save() did not give says no time: such a file is read to know it.
    const candidates = files.filter((f) => f.startedMs === null || inRange(f.startedMs, range));
    const read = await inPool(candidates, READ_CONCURRENCY, (f) => this.entry(f.name));
    const unreadable: Unreadable[] = [];
    const entries: HistoryEntry[] = [];
    read.forEach((e, i) => {
      const name = candidates[i]?.name ?? '';
      if ('reason' in e) unreadable.push({ fileName: name, reason: e.reason });
      else if (inRange(Date.parse(e.startedAt), range)) entries.push(e);
    });
    const otherIds = read.flatMap((e, i) => (!('reason' in e) && candidates[i]?.id === null ? [e.id] : []));
    return { runs: runsOf(entries), unreadable, total: countRuns(files, otherIds), files };
  }

  /** A file's summary: cached, or its head read now; the reason when it is not a valid result. */
  private async entry(name: string): Promise<HistoryEntry | { reason: string }> {
    const hit = this.cache.get(name);
    if (hit) return hit;
    try {
      const e = entryOf(await this.head(name), name);
      if (this.cache.size < MAX_CACHED) this.cache.set(name, e);
      return e;
    } catch (err) {
      // Not kept: a file mended by hand reads at the next listing.
      return { reason: describeError(err).message };
    }
  }

  private async head(name: string): Promise<ResultHead> {
    return readResultHead(await fileInFolder(this.dir, name), { noFollow: true, maxBytes: LIST_READ_MAX_BYTES });
  }

  /** The folder's JSON files but the app's own, newest first by name. */
  private async fileNames(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return names
      .filter((n) => n.endsWith('.json') && !APP_FILES.has(n))
      .sort()
      .reverse();
  }

  /** One stored result, checked with the result schema (a file with the right `schema` but missing fields is refused here, not later). */
  private async read(name: string): Promise<LonghaulResult> {
    return readResultFile(await fileInFolder(this.dir, name), { noFollow: true });
  }
}

function namedFile(name: string): NamedFile {
  const m = RESULT_NAME.exec(name);
  if (!m) return { name, id: null, startedMs: null };
  const ms = Date.parse(`${m[1]}:${m[2]}:${m[3]}${m[4] ? `.${m[4]}` : ''}Z`);
  return { name, id: m[5] ?? null, startedMs: Number.isFinite(ms) ? ms : null };
}

/** Runs in the folder: the ids its names carry, and those read from files named otherwise. */
function countRuns(files: NamedFile[], otherIds: string[]): number {
  return new Set([...files.flatMap((f) => (f.id ? [f.id] : [])), ...otherIds]).size;
}

function inRange(ms: number, r: TimeRange): boolean {
  return (r.fromMs === null || ms >= r.fromMs) && (r.toMs === null || ms < r.toMs);
}

/** A filter's time range; a time that is not ISO 8601 is refused (the app's schema and the CLI check first). */
function rangeOf(f: HistoryFilter): TimeRange {
  const at = (iso: string | undefined, what: string): number | null => {
    if (iso === undefined) return null;
    const ms = Date.parse(iso);
    if (!Number.isFinite(ms)) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `${what} "${iso}" is not an ISO 8601 time (e.g. 2026-12-01T08:00:00Z)`);
    return ms;
  };
  return { fromMs: at(f.from, 'from'), toMs: at(f.to, 'to') };
}

function scheduleMatches(e: HistoryEntry, f: HistoryFilter): boolean {
  if (f.schedule === undefined) return true;
  if (f.schedule === null) return e.schedule === null;
  return e.schedule?.name === f.schedule;
}

/**
 * Entries grouped by run id, newest first. A run with both ends on this PC is stored twice under one id (the
 * controller's result and the local responder's): the controller's speaks for it, with the schedule either carries.
 */
function runsOf(entries: HistoryEntry[]): StoredRun[] {
  const byId = new Map<string, HistoryEntry[]>();
  for (const e of entries) byId.set(e.id, [...(byId.get(e.id) ?? []), e]);
  const runs = [...byId.entries()].map(([id, es]): StoredRun => {
    const lead = es.find((e) => e.writtenBy === 'controller') ?? (es[0] as HistoryEntry);
    const schedule = lead.schedule ?? es.find((e) => e.schedule !== null)?.schedule ?? null;
    return { id, files: es.map((e) => e.fileName), entry: { ...lead, schedule }, startedMs: Date.parse(lead.startedAt) };
  });
  return runs.sort((a, b) => b.startedMs - a.startedMs || (a.entry.fileName < b.entry.fileName ? 1 : -1));
}

/** `fn` over `items`, at most `n` at a time; results in the items' order. */
async function inPool<T, R>(items: readonly T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/**
 * The partner as History names it. Through the link emulator the controller dialled the local proxy, so
 * `responder.address` is the proxy's 127.0.0.1 port: the link record's target is the real partner.
 */
function responderText(r: Pick<ResultHead, 'responder' | 'link'>): string {
  if (!r.link) return `${r.responder.hostname} (${r.responder.address})`;
  return r.link.target ? `${r.responder.hostname} (${r.link.target}, through the link emulator)` : `${r.responder.hostname} (through the link emulator)`;
}

function entryOf(r: ResultHead, fileName: string): HistoryEntry {
  return {
    id: r.id,
    startedAt: r.startedAt,
    controller: r.controller.hostname,
    responder: responderText(r),
    streams: r.params.streams,
    direction: r.params.direction,
    bytes: r.total.bytes,
    bitsPerSecond: shownRate(r.total).bitsPerSecond,
    partial: r.partial,
    link: r.link ? (r.link.preset ?? 'custom') : null,
    fileName,
    writtenBy: r.writtenBy,
    schedule: r.schedule ? { name: r.schedule.name, slot: r.schedule.slot } : null,
    protocol: r.params.protocol === 'udp' ? 'udp' : 'tcp',
    verdicts: (r.diagnosis ?? []).map((d) => d.verdict),
  };
}
