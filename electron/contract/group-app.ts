/**
 * What the app's channels say about multi-peer runs (the table is in api.ts):
 * the start request, the end event, History's listing of `longhaul.group/1`
 * files and their export formats. Pure types and constants: the renderer shares them.
 */
import type { LonghaulGroupResult, SumOf } from './group.js';
import type { Direction, ResultParams } from './result.js';

/**
 * Peers in one group run from the app. Each peer is a whole paired run (its own
 * control channel and data workers on this PC), so a handful is what one PC's
 * cores carry without the controller becoming the limit it measures.
 */
export const MAX_GROUP_PEERS = 8;

export interface StartGroupRunRequest {
  /** Two or more paired partners, in the order the reports number them (peer 1, peer 2, …). */
  peers: { host: string; port: number }[];
  /** The same for every peer; `direction` applies to all (dual transmit, dual receive, bidir). */
  params: ResultParams;
}

export interface GroupEnded {
  runId: string;
  group: LonghaulGroupResult;
  /** Where the group file was saved for History (`<data dir>/groups/`), or null with `saveError`. */
  savedPath: string | null;
  saveError: string | null;
}

/** Group exports: the document itself, its CSV and its console log (report/group-*.ts). */
export type GroupExportFormat = 'json' | 'csv' | 'console';
export const GROUP_EXPORT_FORMATS: readonly GroupExportFormat[] = ['json', 'csv', 'console'];

/** A group as History lists it. */
export interface GroupEntry {
  id: string;
  /** e.g. `2 peers, dual receive`. */
  title: string;
  startedAt: string;
  direction: Direction;
  /** Each peer as `hostname (address)`, in peer order. */
  peers: string[];
  /** Wall-clock aggregate and per-peer sum, bit/s (null: unknown). */
  bitsPerSecond: number | null;
  peerSumBitsPerSecond: number | null;
  /** What the per-peer sum added (GroupTotal.peerSumOf); absent for groups saved before it was kept. */
  peerSumOf?: SumOf;
  partial: boolean;
  fileName: string;
}

/** History's listing of groups: the readable ones, and the files that are not (named, with why). */
export interface GroupListing {
  entries: GroupEntry[];
  unreadable: { fileName: string; reason: string }[];
}
