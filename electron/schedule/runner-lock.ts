/**
 * One schedule runner per data folder, so one per PC and user: the app and `longhaul schedule` each
 * run their schedules' tests one at a time (test-turns.ts), and this lock keeps two of them from
 * running tests side by side. `<results>/schedules/runner.lock` holds the holder's pid and door; a
 * lock whose process is gone (a crash, a kill -9) is taken over.
 */
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { LonghaulError } from '../util/errors.js';
import { printable } from '../util/printable.js';

interface LockInfo {
  pid: number;
  /** Who runs the schedules: `the app`, `longhaul schedule`. */
  door: string;
  since: string;
}

/** Lock files this process holds (two runners in one process are refused as two processes are). */
const heldHere = new Set<string>();

interface RunnerLock {
  readonly file: string;
  release(): Promise<void>;
}

/** Take the lock for `door`, or LH_ERR_BUSY naming who holds it. */
export async function takeRunnerLock(resultsDir: string, door: string): Promise<RunnerLock> {
  const dir = path.join(resultsDir, 'schedules');
  const file = path.join(dir, 'runner.lock');
  await mkdir(dir, { recursive: true });
  const info: LockInfo = { pid: process.pid, door, since: new Date().toISOString() };
  // Twice at most: the second time after taking over a dead holder's file.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const h = await open(file, 'wx');
      await h.writeFile(JSON.stringify(info) + '\n');
      await h.close();
      heldHere.add(file);
      return {
        file,
        release: async () => {
          if (!heldHere.delete(file)) return;
          const now = await holderOf(file);
          if (now?.pid === process.pid) await unlink(file).catch(() => undefined);
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = await holderOf(file);
      const mine = holder?.pid === process.pid;
      if (holder && ((mine && heldHere.has(file)) || (!mine && alive(holder.pid))))
        throw new LonghaulError(
          'LH_ERR_BUSY',
          `this PC's schedules are run by ${holder.door} (process ${holder.pid}, since ${holder.since}): one runner at a time keeps two tests from sharing the PC; stop it first (${file})`,
        );
      await unlink(file).catch(() => undefined);
    }
  }
  throw new LonghaulError('LH_ERR_BUSY', `${file} is being taken by another process: try again`);
}

async function holderOf(file: string): Promise<LockInfo | null> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8')) as Partial<LockInfo>;
    return typeof v.pid === 'number' && Number.isSafeInteger(v.pid)
      ? { pid: v.pid, door: printable(String(v.door ?? 'another process').slice(0, 40)), since: printable(String(v.since ?? '?').slice(0, 40)) }
      : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
