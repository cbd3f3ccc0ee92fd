/**
 * One core's own cache size from Linux's sysfs layout, on made-up trees: the level 2 entry is found among the
 * others, its size read in the kernel's binary units, and anything unreadable is unknown (null), never a guess.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { l2CacheBytes, parseCacheSize, readL2CacheBytes } from '../../../electron/engine/data-plane/core-cache.js';

const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A sysfs-like cache directory: one indexN per entry, with level, type and size. */
function tree(entries: { level: string; type: string; size: string }[]): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'lh-cache-'));
  roots.push(root);
  entries.forEach((e, i) => {
    const dir = path.join(root, `index${i}`);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'level'), `${e.level}\n`);
    writeFileSync(path.join(dir, 'type'), `${e.type}\n`);
    writeFileSync(path.join(dir, 'size'), `${e.size}\n`);
  });
  return root;
}

describe("a core's own cache", () => {
  it('reads sysfs sizes in binary units, and nothing else', () => {
    assert.equal(parseCacheSize('512K\n'), 512 * 1024);
    assert.equal(parseCacheSize('1024K'), 1024 * 1024);
    assert.equal(parseCacheSize('32M'), 32 * 1024 * 1024);
    assert.equal(parseCacheSize('65536'), 65536);
    for (const bad of ['', 'K', '512 KB', '-1K', '0K', 'lots']) assert.equal(parseCacheSize(bad), null, bad);
  });

  it('finds the level 2 entry among level 1 data/instruction and level 3 (this VM: EPYC, 512K)', () => {
    const root = tree([
      { level: '1', type: 'Data', size: '32K' },
      { level: '1', type: 'Instruction', size: '32K' },
      { level: '2', type: 'Unified', size: '512K' },
      { level: '3', type: 'Unified', size: '32768K' },
    ]);
    assert.equal(readL2CacheBytes(root), 512 * 1024);
  });

  it('takes a level 2 data cache, never a level 2 instruction cache', () => {
    const root = tree([
      { level: '2', type: 'Instruction', size: '64K' },
      { level: '2', type: 'Data', size: '1M' },
    ]);
    assert.equal(readL2CacheBytes(root), 1024 * 1024);
  });

  it('unknown without the directory, without a level 2 entry, or with an unreadable size', () => {
    assert.equal(readL2CacheBytes(path.join(os.tmpdir(), 'lh-no-such-cache-dir')), null);
    assert.equal(readL2CacheBytes(tree([{ level: '1', type: 'Data', size: '32K' }])), null);
    assert.equal(readL2CacheBytes(tree([{ level: '2', type: 'Unified', size: 'big' }])), null);
  });

  it("this PC's answer is a size or unknown, the same on every call", () => {
    const a = l2CacheBytes();
    assert.ok(a === null || (Number.isInteger(a) && a > 0), String(a));
    assert.equal(l2CacheBytes(), a);
    if (process.platform !== 'linux') assert.equal(a, null, 'only Linux tells it');
  });
});
