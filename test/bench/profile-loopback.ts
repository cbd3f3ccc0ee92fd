/**
 * `npm run bench:profile`: where a loopback run's CPU goes. Each run is a `longhaul listen --once`
 * and a `longhaul run` on 127.0.0.1 while `perf record -a` samples every CPU (cpu-clock, so it works
 * in a VM). Every sample is put in one bucket, by the thread it hit (the process tree's threads are
 * listed from /proc while the run lasts) and the function:
 *
 *   data: Longhaul's own     the native data threads (lh-send, lh-recv) in the addon's code
 *   data: kernel copy        the same threads in the kernel's copy routines (the bytes themselves)
 *   data: kernel TCP         the same threads elsewhere in the kernel (TCP, syscalls, softirq run there)
 *   workers' JS              the data worker processes' other threads (event loop, IPC, sampling, GC)
 *   controller / responder   the two CLI processes (control channel, recorder, printing, GC)
 *   softirq elsewhere        the kernel's packet work on no Longhaul thread (ksoftirqd, idle CPUs)
 *   other programs           everything else that was not idle (this script included)
 *
 * Only the steady state is sampled (from 1 s after both data threads run to 0.5 s before the end: no
 * start-up, no handshake), so --seconds must be at least 3. Shares are of the machine's busy samples (idle excluded). "Everything else" of issue #43 is
 * workers' JS + controller + responder. Not a test: it asserts nothing and is never run by CI.
 * Needs root and `perf` (Debian: linux-perf).
 *
 *   npm run bench:profile -- [--configs 1x128K,2x128K,1x1M-R] [--intervals 1,0.1] [--seconds 5] [--rounds 2] [--json out.json]
 *                            [--threads N]   (also list each run's N busiest Longhaul threads)
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { writeFile } from 'node:fs/promises';
import { parseSize } from '../../electron/util/units.js';
import { childEnded } from '../helpers/child-exit.js';

const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));

const BUCKETS = [
  'data: Longhaul own',
  'data: kernel copy',
  'data: kernel TCP',
  "workers' JS",
  'controller',
  'responder',
  'softirq elsewhere',
  'other programs',
] as const;
type Bucket = (typeof BUCKETS)[number];

/** The kernel's copy routines between user memory and socket buffers (x86-64, Linux 6.x). */
const KERNEL_COPY = /copy_user|_copy_to_iter|_copy_from_iter|copy_page|rep_movs|memcpy|skb_copy_datagram|csum_partial_copy|copyin|copyout/;
/** Where an idle CPU's samples land. */
const IDLE = /idle|halt|mwait|cpuidle|poll_idle|do_idle/;
const DATA_THREAD = /^lh-(send|recv|udp-send)$/;

/** The span sampled starts this long after both data threads exist and ends this long before the run's end. */
const LEAD_IN_MS = 1000;
const TAIL_MS = 500;

type Role = 'worker' | 'controller' | 'responder';

interface Profile {
  config: string;
  intervalSeconds: number;
  bitsPerSecond: number;
  bytes: number;
  /** Whole-machine busy CPU seconds per GB moved (/proc/stat over the run). */
  machineCpuSecondsPerGB: number;
  /** Share of the machine's busy samples per bucket. */
  shares: Record<Bucket, number>;
  samples: number;
  /** Longhaul's threads, busiest first: "role tid name" and its share of the busy samples. */
  threads: { thread: string; share: number }[];
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Busy and total jiffies of all CPUs (/proc/stat's first line). */
function cpuTicks(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  return { busy: total - idle, total };
}

interface ThreadOf {
  role: Role;
  /** The thread's name as /proc has it (perf keeps the name a thread had when perf started). */
  comm: string;
}

/** Every thread of `roots`' process trees, by thread id, with its name and the role of its process. */
function treeThreads(roots: number[], into: Map<number, ThreadOf>): void {
  const parent = new Map<number, number>();
  const cmd = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      cmd.set(Number(name), readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      // gone between the listing and the read
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (roots.includes(p)) return true;
    return false;
  };
  for (const [pid, line] of cmd) {
    if (!inTree(pid)) continue;
    const role: Role = line.includes('data-worker') ? 'worker' : / listen /.test(line) ? 'responder' : 'controller';
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) into.set(Number(tid), { role, comm: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() });
    } catch {
      // exited
    }
  }
}

/** Which bucket a perf sample belongs in. */
function bucketOf(tid: number, comm: string, dso: string, sym: string, threads: Map<number, ThreadOf>): Bucket | 'idle' {
  const kernel = dso.includes('kernel');
  if (tid === 0 || comm.startsWith('swapper')) return IDLE.test(sym) ? 'idle' : 'softirq elsewhere';
  if (comm.startsWith('ksoftirqd')) return 'softirq elsewhere';
  const thread = threads.get(tid);
  if (!thread) return 'other programs';
  const { role } = thread;
  if (DATA_THREAD.test(thread.comm)) return !kernel ? 'data: Longhaul own' : KERNEL_COPY.test(sym) ? 'data: kernel copy' : 'data: kernel TCP';
  return role === 'worker' ? "workers' JS" : role;
}

/** Poll the trees (every 100 ms, at most `timeoutMs`) until a sending and a receiving data thread run; when, or null. */
async function dataThreadsUp(roots: number[], threads: Map<number, ThreadOf>, timeoutMs: number): Promise<number | null> {
  for (const until = Date.now() + timeoutMs; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    treeThreads(roots, threads);
    const names = new Set([...threads.values()].map((t) => t.comm));
    if (names.has('lh-send') && names.has('lh-recv')) return Date.now();
  }
  return null;
}

/** One line per sample: `comm pid/tid ip sym (dso)`. */
async function perfSamples(file: string): Promise<string> {
  const child = spawn('perf', ['script', '-i', file, '-F', 'comm,pid,tid,ip,sym,dso'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await childEnded(child);
  return out;
}

const SAMPLE = /^\s*(.+?)\s+(\d+)\/(\d+)\s+[0-9a-f]+\s+(.*?)\s+\(([^()]*)\)\s*$/;

async function profileOnce(streams: number, len: number, reverse: boolean, seconds: number, interval: number, freq: number): Promise<Profile> {
  const port = await freePort();
  const dir = os.tmpdir();
  const perfFile = path.join(dir, `longhaul-profile-${process.pid}.data`);
  const json = path.join(dir, `longhaul-profile-${process.pid}.json`);
  const env = { ...process.env, CI: 'true' };
  const node = process.execPath;
  const server = spawn(node, [BIN, 'listen', '--once', '--no-record', '--bind', '127.0.0.1', '--port', String(port)], { stdio: 'ignore', env });
  await new Promise((r) => setTimeout(r, 500));
  const before = cpuTicks();
  const client = spawn(
    node,
    [
      BIN,
      'run',
      `127.0.0.1:${port}`,
      '-t',
      String(seconds),
      '-l',
      String(len),
      '-P',
      String(streams),
      '-i',
      String(interval),
      ...(reverse ? ['-R'] : []),
      '--json',
      json,
    ],
    { stdio: 'ignore', env },
  );
  const roles = new Map<number, ThreadOf>();
  const roots = [server.pid!, client.pid!];
  const poll = setInterval(() => treeThreads(roots, roles), 200);
  const deadline = setTimeout(() => client.kill('SIGKILL'), (seconds + 30) * 1000);
  // The steady state only: from LEAD_IN_MS after both data threads exist (start-up, the handshake
  // and the workers' first JIT work are over) to TAIL_MS before the run's end.
  const dataSince = await dataThreadsUp(roots, roles, 30_000);
  const spanMs = seconds * 1000 - LEAD_IN_MS - TAIL_MS;
  await new Promise((r) => setTimeout(r, LEAD_IN_MS));
  const perf = spawn('perf', ['record', '-a', '-F', String(freq), '-o', perfFile, '--', 'sleep', String(spanMs / 1000)], { stdio: 'ignore' });
  if (dataSince === null) throw new Error('no data thread (lh-send, lh-recv) appeared within 30 s: is the native addon built?');
  await childEnded(perf);
  await childEnded(client);
  clearTimeout(deadline);
  const after = cpuTicks();
  clearInterval(poll);
  await childEnded(server);
  const result = JSON.parse(await readFile(json, 'utf8')) as { total: { bitsPerSecond: number; bytes: number } };
  const counts = new Map<Bucket | 'idle', number>();
  /** Longhaul's threads: "role tid name" → samples. */
  const perThread = new Map<string, number>();
  for (const line of (await perfSamples(perfFile)).split('\n')) {
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const b = bucketOf(Number(m[3]), m[1]!, m[5]!, m[4]!, roles);
    const t = roles.get(Number(m[3]));
    if (t) {
      const key = `${t.role} ${m[3]} ${t.comm}`;
      perThread.set(key, (perThread.get(key) ?? 0) + 1);
    }
    counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  await rm(perfFile, { force: true });
  await rm(json, { force: true });
  const busy = BUCKETS.reduce((a, b) => a + (counts.get(b) ?? 0), 0);
  const shares = Object.fromEntries(BUCKETS.map((b) => [b, busy > 0 ? (counts.get(b) ?? 0) / busy : 0])) as Record<Bucket, number>;
  const hz = 100; // USER_HZ: /proc/stat counts in 1/100 s on Linux
  return {
    config: `-P ${streams} -l ${len / 1024}K${reverse ? ' -R' : ''}`,
    intervalSeconds: interval,
    bitsPerSecond: result.total.bitsPerSecond,
    bytes: result.total.bytes,
    machineCpuSecondsPerGB: (after.busy - before.busy) / hz / (result.total.bytes / 1e9),
    shares,
    samples: busy,
    threads: [...perThread].sort((a, b) => b[1] - a[1]).map(([thread, n]) => ({ thread, share: busy > 0 ? n / busy : 0 })),
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const range = (xs: number[], f: (x: number) => string): string => {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return f(lo) === f(hi) ? f(lo) : `${f(lo)}–${f(hi)}`;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      configs: { type: 'string', default: '1x128K,2x128K' },
      intervals: { type: 'string', default: '1,0.1' },
      seconds: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '2' },
      freq: { type: 'string', default: '997' },
      json: { type: 'string' },
      threads: { type: 'string', default: '0' },
    },
  });
  const seconds = Number(values.seconds);
  if (!(seconds >= 3)) throw new Error('--seconds must be at least 3: the profile samples from 1 s after the data threads start to 0.5 s before the end');
  const rounds = Number(values.rounds);
  const intervals = values.intervals!.split(',').map(Number);
  // STREAMSxLENGTH, `-R` at the end for the responder sending (as npm run bench's rows).
  const configs = values.configs!.split(',').map((c) => {
    const reverse = c.endsWith('-R');
    const [p, l] = c.replace(/-R$/, '').split('x');
    return { streams: Number(p), len: parseSize(l!), reverse, name: `-P ${p} -l ${parseSize(l!) / 1024}K${reverse ? ' -R' : ''}` };
  });
  const load = os.loadavg()[0]!;
  console.log(
    `profile of longhaul loopback, ${seconds} s per run, ${rounds} rounds, ${os.availableParallelism()} CPUs, ${os.release()}, ${new Date().toISOString()}`,
  );
  console.log(`load average before the start: ${load.toFixed(2)}${load > 0.5 ? ' (NOT QUIET: shares of "other programs" and rates are unreliable)' : ''}\n`);
  const all: Profile[] = [];
  for (const c of configs) {
    // Alternate the intervals within each round so drift in machine state favours neither.
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? intervals : [...intervals].reverse();
      for (const i of order) {
        const p = await profileOnce(c.streams, c.len, c.reverse, seconds, i, Number(values.freq));
        all.push(p);
        const top = BUCKETS.map((b) => `${b} ${pct(p.shares[b])}`).join(', ');
        console.log(`  ${p.config} -i ${i}: ${(p.bitsPerSecond / 1e9).toFixed(2)} Gbit/s, ${p.machineCpuSecondsPerGB.toFixed(3)} CPU s/GB; ${top}`);
        for (const t of p.threads.slice(0, Number(values.threads))) console.log(`      ${pct(t.share).padStart(7)}  ${t.thread}`);
      }
    }
  }
  console.log(`\n| config | -i | Gbit/s | machine CPU s/GB | ${BUCKETS.join(' | ')} | everything else |`);
  console.log(`|---|---|---|---|${BUCKETS.map(() => '---').join('|')}|---|`);
  for (const c of configs) {
    for (const i of intervals) {
      const ps = all.filter((p) => p.config === c.name && p.intervalSeconds === i);
      const cells = BUCKETS.map((b) =>
        range(
          ps.map((p) => p.shares[b]),
          pct,
        ),
      );
      const rest = ps.map((p) => p.shares["workers' JS"] + p.shares.controller + p.shares.responder);
      console.log(
        `| ${ps[0]!.config} | ${i} | ${range(
          ps.map((p) => p.bitsPerSecond / 1e9),
          (x) => x.toFixed(1),
        )} | ${range(
          ps.map((p) => p.machineCpuSecondsPerGB),
          (x) => x.toFixed(3),
        )} | ${cells.join(' | ')} | ${range(rest, pct)} |`,
      );
    }
  }
  console.log('\nshares are of the machine\'s busy perf samples (cpu-clock); "everything else" = workers\' JS + controller + responder');
  if (values.json) await writeFile(values.json, JSON.stringify({ load, profiles: all }, null, 2));
}

await main();
