/** A data worker process as the engine holds it, and how many to fork (data-plane.ts). */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { nativeSockets } from '../../native/load-native.js';
import type { StreamEnd } from '../../protocol/messages.js';
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

/** How many worker processes to use for `streamCount` streams of one role. */
export function workerCount(streamCount: number, maxWorkersPerRole?: number): number {
  return Math.max(1, Math.min(streamCount, maxWorkersPerRole ?? Math.max(1, os.availableParallelism())));
}
