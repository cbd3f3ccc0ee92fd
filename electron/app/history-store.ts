/**
 * History: one `longhaul.result/1` JSON file per run in the results folder.
 * File names are `<startedAt>_<id>.json`; ids are the run's hex id, checked
 * before they touch a path so a request cannot walk out of the folder.
 */
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { HistoryEntry, HistoryListing } from '../contract/api.js';
import type { LonghaulResult } from '../contract/result.js';
import { readResultFile, readResultHead, writeResultFile, type ResultHead } from '../report/result-file.js';
import { describeError, LonghaulError } from '../util/errors.js';
import { fileInFolder, LIST_READ_MAX_BYTES } from './history-files.js';

const ID = /^[0-9a-f]{8,64}$/;
/** Newest first, at most this many in a listing (older files stay on disk). */
const MAX_LISTED = 200;

export class HistoryStore {
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
   * Summaries of the stored runs, newest first; a file that is not a valid result is named with why, never fatal to
   * the list. Only each file's head is read and checked (not its streams and intervals, which `load` checks), and
   * only from regular files in the folder (history-files.ts), at most LIST_READ_MAX_BYTES of each.
   */
  async list(): Promise<HistoryListing> {
    const names = (await this.fileNames()).slice(0, MAX_LISTED);
    const out: HistoryListing = { entries: [], unreadable: [] };
    for (const name of names) {
      try {
        const file = await fileInFolder(this.dir, name);
        out.entries.push(entryOf(await readResultHead(file, { noFollow: true, maxBytes: LIST_READ_MAX_BYTES }), name));
      } catch (err) {
        out.unreadable.push({ fileName: name, reason: describeError(err).message });
      }
    }
    out.entries = oneEntryPerRun(out.entries);
    return out;
  }

  /** The stored result with this id: the controller's where both ends stored the run here ("Both on this PC"). */
  async load(id: string): Promise<LonghaulResult> {
    if (!ID.test(id)) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `"${id}" is not a result id`);
    const names = (await this.fileNames()).filter((n) => n.endsWith(`_${id}.json`));
    if (names.length === 0) throw new LonghaulError('LH_ERR_NOT_FOUND', `no stored result with id ${id} in ${this.dir}`);
    const results = await Promise.all(names.map((n) => this.read(n)));
    return results.find((r) => r.writtenBy === 'controller') ?? (results[0] as LonghaulResult);
  }

  private async fileNames(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return names
      .filter((n) => n.endsWith('.json'))
      .sort()
      .reverse();
  }

  /** One stored result, checked with the result schema (a file with the right `schema` but missing fields is refused here, not later). */
  private async read(name: string): Promise<LonghaulResult> {
    return readResultFile(await fileInFolder(this.dir, name), { noFollow: true });
  }
}

/**
 * One row per run: a run with both ends on this PC is stored twice under one id (the controller's
 * result and the local responder's), and the listing keeps the controller's. Order is kept.
 */
function oneEntryPerRun(entries: HistoryEntry[]): HistoryEntry[] {
  const controllerRuns = new Set(entries.filter((e) => e.writtenBy === 'controller').map((e) => e.id));
  const seen = new Set<string>();
  return entries.filter((e) => {
    if (seen.has(e.id) || (e.writtenBy !== 'controller' && controllerRuns.has(e.id))) return false;
    seen.add(e.id);
    return true;
  });
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
    bitsPerSecond: r.total.bitsPerSecond,
    partial: r.partial,
    link: r.link ? (r.link.preset ?? 'custom') : null,
    fileName,
    writtenBy: r.writtenBy,
  };
}
