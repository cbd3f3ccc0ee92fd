/** One schedule runner per data folder (electron/schedule/runner-lock.ts): the second is refused naming the first; a dead holder's lock is taken over. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { takeRunnerLock } from '../../electron/schedule/runner-lock.js';
import { tmpDir } from '../helpers/tmp.js';

describe('schedule runner lock', () => {
  it('refuses a second runner while the first lives, and is free again once released', async (t) => {
    const dir = tmpDir(t);
    const first = await takeRunnerLock(dir, 'the app');
    // A live holder that is not this process: the lock names it.
    await writeFile(first.file, JSON.stringify({ pid: process.ppid, door: 'the app', since: '2026-12-07T00:00:00Z' }));
    await assert.rejects(
      takeRunnerLock(dir, 'longhaul schedule'),
      (e: Error & { code?: string }) => e.code === 'LH_ERR_BUSY' && /run by the app \(process \d+/.test(e.message),
    );
    await writeFile(first.file, JSON.stringify({ pid: process.pid, door: 'the app', since: '' }));
    await first.release();
    const again = await takeRunnerLock(dir, 'longhaul schedule');
    await again.release();
  });

  it('takes over the lock of a process that is gone (a crash, kill -9)', async (t) => {
    const dir = tmpDir(t);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const first = await takeRunnerLock(dir, 'x');
    await writeFile(path.join(dir, 'schedules', 'runner.lock'), JSON.stringify({ pid: Number(gone.stdout), door: 'a crashed app', since: '' }));
    const lock = await takeRunnerLock(dir, 'longhaul schedule');
    assert.equal(lock.file, first.file);
    await lock.release();
  });
});
