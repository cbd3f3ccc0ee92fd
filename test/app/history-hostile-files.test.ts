/**
 * History against files planted in a shared results folder: a deeply nested
 * file, a link to /dev/zero, a link out of the folder, a FIFO. Each is named
 * unreadable (or skipped) within milliseconds, the good result is still
 * listed, and the event loop (the UI server's) keeps answering meanwhile.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HistoryStore } from '../../electron/app/history-store.js';
import { readResultFile } from '../../electron/report/result-file.js';
import { fakeResult } from '../helpers/results.js';
import { within } from '../helpers/net.js';

/** `[`×n then `]`×n: 2n bytes nested n deep (n = 150,000 blocked list() for 17 s when each level was re-scanned). */
function nested(n: number): string {
  return '['.repeat(n) + ']'.repeat(n);
}

/** The longest gap between event-loop turns while `work` runs, ms. */
async function longestStall<T>(work: Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const value = await work;
    stallMs = Math.max(stallMs, performance.now() - last);
    return { value, stallMs };
  } finally {
    clearInterval(tick);
  }
}

describe('history against hostile files', { timeout: 60_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'longhaul-hostile-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a 300 KB file nested 150,000 deep is refused at the documented depth, in milliseconds, without stalling the loop', async () => {
    const results = path.join(dir, 'nested');
    const store = new HistoryStore(results);
    await store.save(fakeResult('aaaaaaaaaaaaaaaa', '2026-01-01T10:00:00.000Z', 1000));
    await writeFile(path.join(results, 'x-nested.json'), nested(150_000));
    const started = performance.now();
    const { value, stallMs } = await longestStall(within(store.list(), 10_000, 'list() over a nested file'));
    const ms = performance.now() - started;
    assert.deepEqual(
      value.entries.map((e) => e.id),
      ['aaaaaaaaaaaaaaaa'],
    );
    assert.equal(value.unreadable.length, 1);
    assert.match(value.unreadable[0]!.reason, /nested deeper than \d+ levels/);
    // 17 s before; a loaded 2-core machine reads the two files in tens of ms.
    assert.ok(ms < 2000, `list() took ${ms.toFixed(0)} ms`);
    assert.ok(stallMs < 1000, `the event loop stalled ${stallMs.toFixed(0)} ms`);
    await assert.rejects(readResultFile(path.join(results, 'x-nested.json')), /nested deeper than/);
  });

  it('a link to /dev/zero, a link out of the folder and a FIFO are named unreadable, never read', async () => {
    const results = path.join(dir, 'links');
    const outside = path.join(dir, 'outside');
    await mkdir(outside, { recursive: true });
    const store = new HistoryStore(results);
    const good = fakeResult('bbbbbbbbbbbbbbbb', '2026-01-02T10:00:00.000Z', 2000);
    await store.save(good);
    // A valid result outside the folder: the link to it is still not followed.
    await new HistoryStore(outside).save(fakeResult('cccccccccccccccc', '2026-01-03T10:00:00.000Z', 3000));
    const [outsideName] = await readdir(outside);
    await symlink('/dev/zero', path.join(results, 'x-zero.json'));
    await symlink(path.join(outside, outsideName!), path.join(results, 'y-out.json'));
    execFileSync('mkfifo', [path.join(results, 'z-fifo.json')]);
    const { value, stallMs } = await longestStall(within(store.list(), 10_000, 'list() over /dev/zero, a link out and a FIFO'));
    assert.deepEqual(
      value.entries.map((e) => e.id),
      ['bbbbbbbbbbbbbbbb'],
    );
    const reasons = Object.fromEntries(value.unreadable.map((u) => [u.fileName, u.reason]));
    assert.match(reasons['x-zero.json'] ?? '', /not a regular file|outside the results folder/);
    assert.match(reasons['y-out.json'] ?? '', /outside the results folder/);
    assert.match(reasons['z-fifo.json'] ?? '', /not a regular file/);
    assert.ok(stallMs < 1000, `the event loop stalled ${stallMs.toFixed(0)} ms`);
    // `report --from` reads only regular files too.
    await assert.rejects(within(readResultFile(path.join(results, 'z-fifo.json')), 5000, 'reading a FIFO'), /not a regular file/);
    await assert.rejects(within(readResultFile('/dev/zero'), 5000, 'reading /dev/zero'), /not a regular file/);
  });
});
