/**
 * History's multi-peer runs: one `longhaul.group/1` file per group in
 * `<data dir>/groups/`, beside the results folder rather than in it. The
 * results folder holds one `longhaul.result/1` per file, and everything that
 * reads it (the listing, the overlay, older versions of the app) checks each
 * file as a result; a group there would be "unreadable" to all of them. The
 * sweeps keep their own folder for the same reason.
 * File names are `<startedAt>_<id>.json`; ids are checked before they touch a path.
 */
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { GroupEntry, GroupListing } from '../contract/group-app.js';
import { GROUP_ROLE_TEXT, type LonghaulGroupResult } from '../contract/group.js';
import { readGroupFile } from '../report/group-file.js';
import { replaceFileAtomicallyAsync } from '../report/report-file.js';
import { describeError, LonghaulError } from '../util/errors.js';

const ID = /^[0-9a-f]{8,64}$/;
/** Newest first, at most this many in a listing (older files stay on disk). */
const MAX_GROUPS_LISTED = 100;

export class GroupStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'groups');
  }

  /** Save, never throwing: the path, or why it could not be saved (a run's end must still be reported). */
  async trySave(g: LonghaulGroupResult): Promise<{ savedPath: string | null; saveError: string | null }> {
    try {
      if (!ID.test(g.id)) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `group id "${g.id}" is not a hex id`);
      await mkdir(this.dir, { recursive: true });
      const file = path.join(this.dir, `${g.startedAt.replace(/[:.]/g, '-')}_${g.id}.json`);
      // A temporary name, then a rename: a reader never sees half a file.
      await replaceFileAtomicallyAsync(file, JSON.stringify(g, null, 2) + '\n');
      return { savedPath: file, saveError: null };
    } catch (err) {
      return { savedPath: null, saveError: describeError(err).message };
    }
  }

  /** The stored groups, newest first; a file that is not a valid group is named with why, never fatal to the list. */
  async list(): Promise<GroupListing> {
    const out: GroupListing = { entries: [], unreadable: [] };
    for (const name of (await this.fileNames()).slice(0, MAX_GROUPS_LISTED)) {
      try {
        out.entries.push(entryOf(await readGroupFile(path.join(this.dir, name)), name));
      } catch (err) {
        out.unreadable.push({ fileName: name, reason: describeError(err).message });
      }
    }
    return out;
  }

  async load(id: string): Promise<LonghaulGroupResult> {
    if (!ID.test(id)) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `"${id}" is not a group id`);
    const name = (await this.fileNames()).find((n) => n.endsWith(`_${id}.json`));
    if (!name) throw new LonghaulError('LH_ERR_NOT_FOUND', `no stored group with id ${id} in ${this.dir}`);
    return readGroupFile(path.join(this.dir, name));
  }

  private async fileNames(): Promise<string[]> {
    try {
      return (await readdir(this.dir))
        .filter((n) => n.endsWith('.json'))
        .sort()
        .reverse();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }
}

function entryOf(g: LonghaulGroupResult, fileName: string): GroupEntry {
  const role = g.peers[0]?.role ?? 'sender';
  return {
    id: g.id,
    title: `${g.peers.length} peers, ${GROUP_ROLE_TEXT[role].short}`,
    startedAt: g.startedAt,
    direction: g.params.direction,
    peers: g.peers.map((p) => `${p.hostname} (${p.address})`),
    bitsPerSecond: g.total.bitsPerSecond,
    peerSumBitsPerSecond: g.total.peerSumBitsPerSecond,
    ...(g.total.peerSumOf ? { peerSumOf: g.total.peerSumOf } : {}),
    partial: g.partial,
    fileName,
  };
}
