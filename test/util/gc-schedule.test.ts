/**
 * The heap schedule (util/gc-schedule.ts) and the memory log (util/memory-log.ts),
 * in real child processes: the same workload of medium-lived garbage (what a
 * run recorder makes: readings kept a few seconds, then merged away) with and
 * without `applyGcSchedule()`. Without it V8 lets the old space grow to
 * several times the live heap before a full GC; with it, not. Each child logs
 * through LONGHAUL_MEMORY_LOG, so the log is checked too. About 9 s.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { MemoryLine } from '../../electron/util/memory-log.js';
import { tmpDir } from '../helpers/tmp.js';

const UTIL = fileURLToPath(new URL('../../electron/util/', import.meta.url));
const MiB = 2 ** 20;

/** A child that keeps 20 batches of 10,000 small objects alive (2 s each at 10 batches/s) for `seconds`, logging its memory each 0.2 s. */
function workload(schedule: boolean, seconds: number): string {
  const url = (f: string): string => JSON.stringify(pathToFileURL(path.join(UTIL, f)).href);
  return `
    const { applyGcSchedule } = await import(${url('gc-schedule.js')});
    const { startMemoryLog } = await import(${url('memory-log.js')});
    if (${schedule}) applyGcSchedule();
    startMemoryLog('workload');
    const keep = [];
    const timer = setInterval(() => {
      const batch = [];
      for (let i = 0; i < 10000; i++) batch.push({ x: i, y: 's' + i, z: [i] });
      keep.push(batch);
      if (keep.length > 20) keep.shift();
    }, 100);
    setTimeout(() => clearInterval(timer), ${seconds * 1000});
  `;
}

async function oldSpacePeak(dir: string, schedule: boolean): Promise<{ peak: number; lines: MemoryLine[] }> {
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', workload(schedule, 8)], {
    env: { ...process.env, LONGHAUL_MEMORY_LOG: dir, LONGHAUL_MEMORY_LOG_SECONDS: '0.2' },
    timeout: 60_000,
  });
  const files = readdirSync(dir);
  assert.equal(files.length, 1, `one log file per process: ${files.join(', ')}`);
  assert.match(files[0] ?? '', /^workload-\d+\.jsonl$/);
  const lines = readFileSync(path.join(dir, files[0] ?? ''), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as MemoryLine);
  return { peak: Math.max(...lines.map((l) => l.spaces.old_space?.[0] ?? 0)), lines };
}

describe('heap schedule', { timeout: 90_000 }, () => {
  it('keeps the old space near the live heap, where V8 alone lets it grow by several times', async (t) => {
    const [plain, scheduled] = await Promise.all([oldSpacePeak(path.join(tmpDir(t), 'plain'), false), oldSpacePeak(path.join(tmpDir(t), 'scheduled'), true)]);
    t.diagnostic(`old space peak: ${(plain.peak / MiB).toFixed(1)} MiB without the schedule, ${(scheduled.peak / MiB).toFixed(1)} MiB with it`);
    // Live: about 200,000 small objects, some 20 MiB. Measured: 75-100 MiB without, about 40 with.
    assert.ok(scheduled.peak < 0.7 * plain.peak, `${(scheduled.peak / MiB).toFixed(1)} vs ${(plain.peak / MiB).toFixed(1)} MiB`);
    // The log: a line every 0.2 s for 8 s, each with RSS and the heap's parts.
    assert.ok(scheduled.lines.length >= 20, `${scheduled.lines.length} lines`);
    for (const l of scheduled.lines) assert.ok(l.rss > l.heapUsed && l.heapTotal >= l.heapUsed && l.spaces.new_space !== undefined);
  });
});
