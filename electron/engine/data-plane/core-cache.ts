/**
 * The size of one core's own cache (level 2), which decides how many sending threads two ends on one PC
 * can run before their receivers copy cold data (worker-slot.ts workerCount). Linux tells it in sysfs;
 * elsewhere, or when sysfs does not say, it is unknown (null) and nothing is decided from it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const LINUX_CPU0_CACHE = '/sys/devices/system/cpu/cpu0/cache';

/** sysfs's `size` of a cache: "512K", "1024K", "32M" (binary units, as the kernel writes them); null when unreadable. */
export function parseCacheSize(text: string): number | null {
  const m = /^(\d+)([KMG]?)$/.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const scale = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2] as '' | 'K' | 'M' | 'G'];
  return n > 0 ? n * scale : null;
}

/**
 * The level 2 data (or unified) cache of the first CPU, in bytes, from `root` (Linux's sysfs layout:
 * index*\/level, type, size). Null when there is no such directory or no level 2 entry.
 */
export function readL2CacheBytes(root = LINUX_CPU0_CACHE): number | null {
  let entries: string[];
  try {
    entries = readdirSync(root).filter((n) => /^index\d+$/.test(n));
  } catch {
    return null;
  }
  for (const name of entries.sort()) {
    try {
      const dir = path.join(root, name);
      const level = readFileSync(path.join(dir, 'level'), 'utf8').trim();
      const type = readFileSync(path.join(dir, 'type'), 'utf8').trim();
      if (level !== '2' || (type !== 'Unified' && type !== 'Data')) continue;
      return parseCacheSize(readFileSync(path.join(dir, 'size'), 'utf8'));
    } catch {
      continue;
    }
  }
  return null;
}

let cached: number | null | undefined;

/** This PC's level 2 cache per core in bytes (null: unknown), read once per process. */
export function l2CacheBytes(): number | null {
  if (cached === undefined) cached = readL2CacheBytes();
  return cached;
}
