/** A data worker process as the engine holds it, and how many to fork (data-plane.ts). */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { nativeSockets } from '../../native/load-native.js';
import type { StreamEnd } from '../../protocol/messages.js';
import { l2CacheBytes } from './core-cache.js';
import type { WorkerCpu } from './cpu-use.js';
import type { WorkerRole } from './worker-messages.js';

export interface WorkerSlot {
  child: ChildProcess;
  role: WorkerRole;
  streamIds: number[];
  lastIndex: number;
  lastT: number;
  /** The worker sent its final sample: all its streams have ended. */
  final: boolean;
  done: StreamEnd[] | null;
  /** The worker's CPU over the transfer, from its `done` (null: it never started, or died first). */
  cpu: WorkerCpu | null;
  exited: boolean;
}

/** Close a descriptor this process no longer needs; an error means it is gone already. */
export function closeQuietly(fd: number): void {
  try {
    nativeSockets().api?.closeFd(fd);
  } catch {
    // nothing left to release
  }
}

/** What decides how many worker processes a role gets (data-plane-options.ts). */
interface WorkerCountOptions {
  /** Cap from the user (`--workers N`): wins over everything else. */
  maxWorkersPerRole?: number;
  /** The partner's end runs on this PC (engine/session/same-pc.ts); null or absent: not known, taken as another PC. */
  samePc?: boolean | null;
  /** The run's write size (`--buffer`), bytes. */
  writeBytes?: number;
  /** One core's own (level 2) cache, bytes (core-cache.ts); null: unknown. Default: this PC's. */
  l2Bytes?: number | null;
  /** This PC's cores; default os.availableParallelism(). */
  cores?: number;
}

/**
 * How many worker processes to use for `streamCount` streams of one role: one per core, at most one per
 * stream. A sending worker serves all its streams from one thread (native/src/sender_group.cc), a receiving
 * worker gives each stream its own. One exception: when the partner's end runs on this PC and a write is
 * larger than a core's own cache, the senders take at most half the cores. A sender sharing a core with a
 * receiver then runs in bursts of whole writes, so the receiver copies data already evicted from that cache
 * and pays for it several times over (docs/measurements.md#same-pc-senders). Unknown cache: no exception.
 */
export function workerCount(role: WorkerRole, streamCount: number, opts: WorkerCountOptions = {}): number {
  const cores = Math.max(1, opts.cores ?? os.availableParallelism());
  const l2 = opts.l2Bytes === undefined ? l2CacheBytes() : opts.l2Bytes;
  const burstsEvict = role === 'send' && opts.samePc === true && l2 !== null && (opts.writeBytes ?? 0) > l2;
  const fair = burstsEvict ? Math.floor(cores / 2) : cores;
  return Math.max(1, Math.min(streamCount, opts.maxWorkersPerRole ?? Math.max(1, fair)));
}
