/**
 * `npm run soak:schedule`: issue 39's long check of a schedule, as a user would leave it running:
 * three paired `longhaul listen` partners on 127.0.0.1, `longhaul schedule --every 20s -t 2
 * --metrics` for ten minutes, one core kept busy by another program (`--busy`, the default). Then
 * it checks, from the saved results and what it sampled:
 *   - no two tests overlapped (each started after the one before ended);
 *   - no slot missed or doubled: each peer ran every slot from the first to the last exactly once;
 *   - `/metrics` answered in under 50 ms every time it was asked (every 2 s) after the first 10 s
 *     (slower ones are listed, with when);
 *   - the scheduling process's resident memory stayed within ±10 % of its mean after the first minute.
 * Not run by CI (ten minutes); the short real-Prometheus run is test/cli/schedule-cli.test.ts.
 * Linux only (/proc).
 *
 *   npm run soak:schedule -- [--minutes 10] [--every 20] [--peers 3] [--no-busy] [--keep DIR]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { parseArgs } from 'node:util';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { loadTrust } from '../../electron/security/load-trust.js';
import { pairedListeners } from '../helpers/listeners.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    every: { type: 'string', default: '20' },
    peers: { type: 'string', default: '3' },
    'no-busy': { type: 'boolean', default: false },
    keep: { type: 'string' },
  },
});
const MINUTES = Number(values.minutes);
const EVERY_S = Number(values.every);
const METRICS_LIMIT_MS = 50;
const MAX_DEVIATION = 0.1;
const WARMUP_MS = 60_000;
/** Scrapes this soon after the start are reported, not judged: the process is loading its code and forking its first test's workers. */
const STARTUP_MS = 10_000;
const BIN = path.join(import.meta.dirname, '..', '..', '..', 'bin', 'longhaul.js');

const cleanups: (() => unknown)[] = [];
const t = { after: (f: () => unknown) => cleanups.push(f) } as unknown as TestContext;
const dir = values.keep ?? mkdtempSync(path.join(os.tmpdir(), 'longhaul-soak-schedule-'));
let failed = false;
const verdict = (ok: boolean, line: string): void => {
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

function rssBytes(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

try {
  const mine = await loadTrust();
  const names = Array.from({ length: Number(values.peers) }, (_, i) => `soak-sched-${i}`);
  const listeners = await pairedListeners(t, mine, names, mine, false);
  const peers = listeners.map((l) => `127.0.0.1:${l.port}`);
  let busy: ChildProcess | null = null;
  if (!values['no-busy']) {
    busy = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
    cleanups.push(() => busy?.kill('SIGKILL'));
  }
  const port = await freePort();
  const data = path.join(dir, 'results');
  const args = [BIN, 'schedule', '--every', `${EVERY_S}s`, '-t', '2', '--name', 'soak', '--metrics', String(port), ...peers];
  console.log(`soak:schedule: ${peers.length} peers every ${EVERY_S} s for ${MINUTES} min${busy ? ', one core busy' : ''}; files in ${dir}`);
  const child = spawn(process.execPath, args, { env: { ...process.env, LONGHAUL_DATA_DIR: data }, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => child.kill('SIGKILL'));
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stdout += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

  const t0 = Date.now();
  const metricMs: number[] = [];
  const slow: string[] = [];
  const rss: { at: number; bytes: number }[] = [];
  while (Date.now() - t0 < MINUTES * 60_000) {
    await new Promise((r) => setTimeout(r, 2000));
    const start = performance.now();
    const ok = await fetch(`http://127.0.0.1:${port}/metrics`).then(
      async (r) => (await r.text(), r.ok),
      () => false,
    );
    const took = performance.now() - start;
    if (ok && Date.now() - t0 >= STARTUP_MS) metricMs.push(took);
    if (took >= METRICS_LIMIT_MS) slow.push(`${((Date.now() - t0) / 1000).toFixed(0)} s: ${took.toFixed(0)} ms`);
    const b = child.pid ? rssBytes(child.pid) : null;
    if (b !== null) rss.push({ at: Date.now() - t0, bytes: b });
  }
  child.kill('SIGINT');
  const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
  verdict(code === 0, `longhaul schedule exited ${code} after Ctrl-C`);

  const results = readdirSync(data)
    .filter((n) => n.endsWith('.json'))
    .map((n) => JSON.parse(readFileSync(path.join(data, n), 'utf8')) as LonghaulResult)
    .filter((r) => r.writtenBy === 'controller' && r.schedule?.name === 'soak')
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const overlaps = results.filter((r, i) => i > 0 && r.startedAt < (results[i - 1] as LonghaulResult).endedAt).length;
  verdict(overlaps === 0, `${results.length} tests, ${overlaps} started before the one before ended`);
  for (const p of peers) {
    const slots = results.filter((r) => r.responder.address === p).map((r) => r.schedule?.slot ?? NaN);
    const first = Math.min(...slots);
    const last = Math.max(...slots);
    const doubled = slots.length - new Set(slots).size;
    const missed = last - first + 1 - new Set(slots).size;
    verdict(doubled === 0 && missed === 0, `${p}: slots ${first}…${last}, ${slots.length} tests, ${missed} missed, ${doubled} doubled`);
  }
  const sorted = [...metricMs].sort((a, b) => a - b);
  const worst = sorted.at(-1) ?? Infinity;
  verdict(
    worst < METRICS_LIMIT_MS && sorted.length > 0,
    `/metrics after the first ${STARTUP_MS / 1000} s: ${sorted.length} scrapes, median ${(sorted[Math.floor(sorted.length / 2)] ?? NaN).toFixed(1)} ms, worst ${worst.toFixed(1)} ms (limit ${METRICS_LIMIT_MS} ms)`,
  );
  if (slow.length) console.log(`     slow scrapes (time since the start): ${slow.join(', ')}`);
  const after = rss.filter((s) => s.at >= WARMUP_MS).map((s) => s.bytes);
  const mean = after.reduce((a, b) => a + b, 0) / Math.max(1, after.length);
  const dev = Math.max(...after.map((b) => Math.abs(b - mean) / mean));
  const mib = (b: number): string => (b / 2 ** 20).toFixed(1);
  verdict(
    after.length > 0 && dev <= MAX_DEVIATION,
    `memory after the first minute: mean ${mib(mean)} MiB, ${mib(Math.min(...after))}–${mib(Math.max(...after))} MiB, at most ${(dev * 100).toFixed(1)} % off the mean`,
  );
  if (failed) console.log(stdout.split('\n').slice(-20).join('\n'));
} finally {
  for (const c of cleanups.reverse()) await c();
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
