/**
 * The soak: `longhaul loopback -P 16 -i 0.1` for a long time, the resident
 * memory of every process it starts (controller, responder, data workers)
 * sampled each second from /proc (Linux), then the files checked complete:
 * the result readable by `report --from`, the log closed with its final
 * summary, the CSV holding every interval of every stream. Shared by the
 * 2-minute CI test (soak.test.ts) and the hour of `npm run soak` (soak.ts).
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { readResultFile } from '../../electron/report/result-file.js';
import type { MemoryLine } from '../../electron/util/memory-log.js';

const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));

interface SoakOptions {
  seconds: number;
  streams: number;
  intervalSeconds: number;
  dir: string;
  /** Called with a line of progress now and then. */
  log?: (line: string) => void;
}

interface ProcessMemory {
  pid: number;
  name: string;
  /** [seconds since the start, RSS bytes]. */
  samples: [number, number][];
}

interface SoakOutcome {
  code: number | null;
  stderr: string;
  processes: ProcessMemory[];
  files: { json: string; log: string; csv: string };
  /** The processes' own memory logs (LONGHAUL_MEMORY_LOG, util/memory-log.ts), one file per process. */
  memoryDir: string;
}

/** Every descendant of `root` (ppid chains read from /proc). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The ppid is the 2nd field after the command, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const todo = [root];
  while (todo.length) {
    const p = todo.pop()!;
    out.push(p);
    for (const [child, pp] of parent) if (pp === p) todo.push(child);
  }
  return out;
}

function rssBytes(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function nameOf(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    // Node's own flags (the forks' heap flags, util/gc-schedule.ts) come before the script: not a name.
    while (args[1]?.startsWith('-')) args.splice(1, 1);
    return (
      args
        .slice(1)
        // A folder's entry (engine/data-plane/data-worker/index.js) is named by its folder: data-worker/index.js.
        .map((a) => (path.basename(a) === 'index.js' ? `${path.basename(path.dirname(a))}/index.js` : path.basename(a)))
        .join(' ')
        .slice(0, 80) ||
      args[0] ||
      String(pid)
    );
  } catch {
    return String(pid);
  }
}

/** Run the soak; resolves when the CLI exits (killed at seconds + 60 s if it hangs). */
export function runSoak(o: SoakOptions): Promise<SoakOutcome> {
  const files = { json: path.join(o.dir, 'soak.json'), log: path.join(o.dir, 'soak.log'), csv: path.join(o.dir, 'soak.csv') };
  const args = [
    'loopback',
    '-P',
    String(o.streams),
    '-i',
    String(o.intervalSeconds),
    '-t',
    String(o.seconds),
    '--json',
    files.json,
    '--log',
    files.log,
    '--csv',
    files.csv,
  ];
  const memoryDir = path.join(o.dir, 'memory');
  const env = { ...process.env, CI: 'true', LONGHAUL_MEMORY_LOG: memoryDir, LONGHAUL_MEMORY_LOG_SECONDS: '10' };
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const started = Date.now();
  const processes = new Map<number, ProcessMemory>();
  const sample = (): void => {
    const t = (Date.now() - started) / 1000;
    for (const pid of descendants(child.pid!)) {
      const rss = rssBytes(pid);
      if (rss === null) continue;
      let p = processes.get(pid);
      if (!p) processes.set(pid, (p = { pid, name: nameOf(pid), samples: [] }));
      p.samples.push([t, rss]);
    }
    if (o.log && Math.round(t) % 60 === 0)
      o.log(
        `${Math.round(t)} s: ${[...processes.values()].map((p) => `${p.name.split(' ')[0]} ${(p.samples.at(-1)![1] / 2 ** 20).toFixed(0)} MiB`).join(', ')}`,
      );
  };
  const timer = setInterval(sample, 1000);
  const kill = setTimeout(() => child.kill('SIGKILL'), (o.seconds + 60) * 1000);
  // Ctrl-C or a kill of the soak stops the run the way a user would (it saves, marked partial) instead of orphaning it.
  const stop = (): void => void child.kill('SIGINT');
  process.once('SIGINT', stop).once('SIGTERM', stop);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      clearInterval(timer);
      clearTimeout(kill);
      resolve({ code, stderr, processes: [...processes.values()], files, memoryDir });
    });
  });
}

interface Flatness {
  name: string;
  pid: number;
  meanBytes: number;
  /** Largest distance from the mean, as a share of it. */
  maxDeviation: number;
  /** Least-squares slope, bytes per minute. */
  slopeBytesPerMinute: number;
}

/** How flat each process's RSS stayed after `warmupSeconds` (processes with fewer than 10 samples left out). */
export function flatness(processes: ProcessMemory[], warmupSeconds: number): Flatness[] {
  const out: Flatness[] = [];
  for (const p of processes) {
    const s = p.samples.filter(([t]) => t >= warmupSeconds);
    if (s.length < 10) continue;
    const n = s.length;
    const mt = s.reduce((a, [t]) => a + t, 0) / n;
    const mv = s.reduce((a, [, v]) => a + v, 0) / n;
    const cov = s.reduce((a, [t, v]) => a + (t - mt) * (v - mv), 0);
    const varT = s.reduce((a, [t]) => a + (t - mt) ** 2, 0);
    out.push({
      name: p.name,
      pid: p.pid,
      meanBytes: mv,
      maxDeviation: Math.max(...s.map(([, v]) => Math.abs(v - mv))) / mv,
      slopeBytesPerMinute: varT > 0 ? (cov / varT) * 60 : 0,
    });
  }
  return out;
}

interface MemoryParts {
  pid: number;
  role: string;
  /** [min, max] after the warm-up, bytes: V8's heap as committed, its old space in use, and the rest of the RSS (binary, native memory). */
  heapCommitted: [number, number];
  oldUsed: [number, number];
  rest: [number, number];
}

/** What each process's own memory log says moved after `warmupSeconds`: V8's heap, or the rest. */
export function memoryParts(memoryDir: string, warmupSeconds: number): MemoryParts[] {
  if (!existsSync(memoryDir)) return [];
  const range = (v: number[]): [number, number] => [Math.min(...v), Math.max(...v)];
  return readdirSync(memoryDir).flatMap((file) => {
    const m = /^(.*)-(\d+)\.jsonl$/.exec(file);
    const lines = readFileSync(path.join(memoryDir, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as MemoryLine)
      .filter((l) => l.t >= warmupSeconds);
    if (!m || lines.length === 0) return [];
    return [
      {
        pid: Number(m[2]),
        role: m[1] ?? file,
        heapCommitted: range(lines.map((l) => l.heapTotal)),
        oldUsed: range(lines.map((l) => l.spaces.old_space?.[1] ?? 0)),
        rest: range(lines.map((l) => l.rss - l.heapTotal)),
      },
    ];
  });
}

interface FileCheck {
  result: LonghaulResult;
  /** Ticks the result covers (merged intervals count their ticks). */
  ticks: number;
  csvIntervalRows: number;
  csvHasFinalTotal: boolean;
  logHasFinalSummary: boolean;
}

/** Read the three files back: the result (in pieces, as report --from does), the CSV's rows, the log's closing summary. */
export async function checkFiles(files: SoakOutcome['files']): Promise<FileCheck> {
  const result = await readResultFile(files.json);
  let csvIntervalRows = 0;
  let csvHasFinalTotal = false;
  for await (const line of createInterface({ input: createReadStream(files.csv) })) {
    if (line.startsWith('interval,')) csvIntervalRows++;
    else if (line.startsWith('total,') && line.includes(',false,')) csvHasFinalTotal = true;
  }
  let logHasFinalSummary = false;
  for await (const line of createInterface({ input: createReadStream(files.log) })) {
    if (line.startsWith(`Run ${result.id}:`) && !line.includes('still going')) logHasFinalSummary = true;
  }
  return { result, ticks: result.intervals.reduce((a, iv) => a + (iv.ticks ?? 1), 0), csvIntervalRows, csvHasFinalTotal, logHasFinalSummary };
}
