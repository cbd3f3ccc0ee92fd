/**
 * A memory log for soaks (docs/results.md, "Memory"): with
 * `LONGHAUL_MEMORY_LOG=DIR` in the environment, every Longhaul process
 * (the CLI, a forked responder, each data worker; children inherit the
 * variable) appends one JSON line every `LONGHAUL_MEMORY_LOG_SECONDS` (default
 * 10) to `DIR/<role>-<pid>.jsonl`: its RSS, V8's heap (committed and used, per
 * space), what V8 knows lives outside its heap (`external`, `arrayBuffers`),
 * and the live heap after the last full GC as V8 last measured it. So a soak
 * can tell Longhaul's data (the live heap) from V8's sizing of its heap and
 * from native memory. Off by default; it never touches a run's files.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';

export interface MemoryLine {
  /** Seconds since this process started logging. */
  t: number;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Per heap space: [committed bytes, used bytes]. */
  spaces: Record<string, [number, number]>;
}

function memoryLine(t: number): MemoryLine {
  const m = process.memoryUsage();
  const spaces: MemoryLine['spaces'] = {};
  for (const s of v8.getHeapSpaceStatistics()) spaces[s.space_name] = [s.physical_space_size, s.space_used_size];
  return { t, rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, spaces };
}

/** Start logging when the environment asks for it; `role` names the file. Returns a stop function. */
export function startMemoryLog(role: string, env: NodeJS.ProcessEnv = process.env): () => void {
  const dir = env.LONGHAUL_MEMORY_LOG;
  if (!dir) return () => undefined;
  const seconds = Math.max(0.1, Number(env.LONGHAUL_MEMORY_LOG_SECONDS) || 10);
  const file = path.join(dir, `${role.replace(/[^a-z0-9-]/gi, '_')}-${process.pid}.jsonl`);
  const started = performance.now();
  const write = (): void => {
    try {
      mkdirSync(dir, { recursive: true });
      appendFileSync(file, JSON.stringify(memoryLine((performance.now() - started) / 1000)) + '\n');
    } catch {
      // A diagnostic: a full disk or a missing folder must not end a run.
    }
  };
  write();
  const timer = setInterval(write, seconds * 1000).unref();
  return () => clearInterval(timer);
}
