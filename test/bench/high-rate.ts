/**
 * The high-rate half of `npm run bench:link`: the link emulator at 1-10 Gbit/s
 * and its own ceiling on this PC, measured the way a user meets it: `longhaul
 * loopback` (the proxy in its own process, both ends' native byte loops), one
 * run at a time, each against the model in the same table, with the CPU each
 * gigabyte cost: the proxy's own (its watch on itself) and the whole run's
 * (every process, bash's `times`), against the same run without the emulator.
 *
 * Steady state: the median of the per-second intervals after the ramp (the
 * first 2 s, or 3 RTTs when longer). The kernel harness has no cell here: its
 * delay is an NFQUEUE queue in user space, itself far below these rates.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { formatRate } from '../../electron/contract/units.js';

const BIN = fileURLToPath(new URL('../../../bin/longhaul.js', import.meta.url));

interface HighRateCell {
  name: string;
  /** `longhaul loopback` arguments (link and run). */
  args: string[];
  /** The same run without the emulator, for the CPU comparison; null: none. */
  direct: string[] | null;
  /** Steady state starts after this many seconds. */
  rampSeconds: number;
}

export const HIGH_RATE_CELLS: HighRateCell[] = [
  { name: 'LAN preset (1 Gbit/s, RTT 0.2 ms), 1 stream', args: ['--link', 'lan', '-t', '8'], direct: ['-t', '8'], rampSeconds: 2 },
  {
    name: 'transcontinental preset (1 Gbit/s, RTT 78 ms), 2 streams × 20 MiB windows, 64 KiB writes',
    args: ['--link', 'transcontinental', '-P', '2', '-w', '20M', '-l', '64K', '-t', '14'],
    direct: null,
    rampSeconds: 5,
  },
  {
    name: '2.5 Gbit/s, RTT 10 ms, window 8 MiB (above the 3.1 MB BDP)',
    args: ['--rate', '2.5gbit', '--delay', '5ms', '-w', '8M', '-t', '8'],
    direct: null,
    rampSeconds: 3,
  },
  {
    name: '2.5 Gbit/s, RTT 10 ms, window 512 KiB (below the BDP)',
    args: ['--rate', '2.5gbit', '--delay', '5ms', '-w', '512K', '-t', '8'],
    direct: null,
    rampSeconds: 3,
  },
  {
    name: '5 Gbit/s, RTT 4 ms, window 8 MiB (above the 2.5 MB BDP)',
    args: ['--rate', '5gbit', '--delay', '2ms', '-w', '8M', '-t', '8'],
    direct: null,
    rampSeconds: 3,
  },
  {
    name: '5 Gbit/s, RTT 4 ms, window 1 MiB (below the BDP)',
    args: ['--rate', '5gbit', '--delay', '2ms', '-w', '1M', '-t', '8'],
    direct: null,
    rampSeconds: 3,
  },
  {
    name: '10 Gbit/s, RTT 2 ms, 2 streams',
    args: ['--rate', '10gbit', '--delay', '1ms', '-P', '2', '-t', '8'],
    direct: ['-P', '2', '-t', '8'],
    rampSeconds: 2,
  },
  { name: "the emulator's ceiling here: rate 100 Gbit/s, no delay, 1 stream", args: ['--rate', '100gbit', '-t', '8'], direct: ['-t', '8'], rampSeconds: 2 },
];

interface Measured {
  steadyBitsPerSec: number | null;
  modelBitsPerSec: number | null;
  bytes: number;
  verdict: string;
  proxyCpuPerGB: number | null;
  runCpuPerGB: number | null;
  relay: string;
  note: string;
}

/** One `longhaul loopback` run; CPU of every process it started (bash's `times`, children). */
function loopback(args: string[], rampSeconds: number, dir: string): Measured {
  const json = join(dir, 'run.json');
  rmSync(json, { force: true });
  const quoted = [process.execPath, BIN, 'loopback', ...args, '--json', json].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const r = spawnSync('bash', ['-c', `${quoted} >/dev/null 2>&1; code=$?; times; exit $code`], { encoding: 'utf8', timeout: 120_000 });
  const cpu = /\n(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(r.stdout ?? '');
  const runCpu = cpu ? Number(cpu[1]) * 60 + Number(cpu[2]) + Number(cpu[3]) * 60 + Number(cpu[4]) : null;
  let result: LonghaulResult;
  try {
    result = JSON.parse(readFileSync(json, 'utf8')) as LonghaulResult;
  } catch {
    return {
      steadyBitsPerSec: null,
      modelBitsPerSec: null,
      bytes: 0,
      verdict: 'failed',
      proxyCpuPerGB: null,
      runCpuPerGB: null,
      relay: '',
      note: `exit ${r.status}: no result`,
    };
  }
  const rates = result.intervals
    .filter((i) => i.t > rampSeconds && i.seconds > 0.5)
    .map((i) => ((i.receivedBytes ?? 0) * 8) / i.seconds)
    .sort((a, b) => a - b);
  const steady = rates.length ? rates[Math.floor(rates.length / 2)]! : null;
  const gb = result.total.bytes / 1e9;
  const w = result.link?.emulatorWatch;
  // An end on Node's byte loop (an interrupted native build) reads lower for a reason of its own: say so.
  const io = result.streams.some((x) => x.send?.io === 'node' || x.receive?.io === 'node') ? "an end ran on Node's byte loop" : '';
  return {
    steadyBitsPerSec: steady,
    modelBitsPerSec: result.link ? modelFor(result) : null,
    bytes: result.total.bytes,
    verdict: result.diagnosis?.[0]?.verdict ?? 'none',
    proxyCpuPerGB: w?.cpuSeconds != null && gb > 0 ? w.cpuSeconds / gb : null,
    runCpuPerGB: runCpu !== null && gb > 0 ? runCpu / gb : null,
    relay: w ? w.relay : '',
    note: [io, (result.unavailable ?? []).length ? `unavailable: ${(result.unavailable ?? []).map((u) => u.field).join(', ')}` : ''].filter(Boolean).join('; '),
  };
}

/** The model for the run's streams: min(rate × payload share, streams × window / RTT). */
function modelFor(r: LonghaulResult): number | null {
  const s = r.link?.settings;
  if (!s) return null;
  const streams = Math.max(1, r.streams.filter((x) => x.sender === 'controller').length);
  const rate = s.rateBitsPerSec === null ? Infinity : s.rateBitsPerSec * (s.mssBytes / (s.mssBytes + 66));
  const rtt = (2 * s.delayMs) / 1000;
  const win = s.windowBytes !== null && rtt > 0 ? (s.windowBytes * 8 * streams) / rtt : Infinity;
  const runWindow = r.params.windowBytes && rtt > 0 ? (r.params.windowBytes * 8 * streams) / rtt : Infinity;
  const m = Math.min(rate, win, runWindow);
  return Number.isFinite(m) ? m : null;
}

const ratio = (a: number | null, b: number | null): string => (a === null || b === null || b === 0 ? 'n/a' : (a / b).toFixed(3));
const num = (v: number | null, digits = 2): string => (v === null ? 'n/a' : v.toFixed(digits));

export function runHighRateCells(only: string): void {
  const cells = HIGH_RATE_CELLS.filter((c) => c.name.includes(only));
  if (cells.length === 0) return;
  const dir = mkdtempSync(join(tmpdir(), 'longhaul-bench-high-'));
  try {
    console.log(
      '\nhigh rates: `longhaul loopback` (proxy in its own process), one run at a time; steady = median of the per-second intervals after the ramp; model = min(rate × 1448/1514, streams × window / RTT), payload',
    );
    console.log('cell | model | steady | steady/model | verdict | relay | proxy CPU s/GB | run CPU s/GB | direct run CPU s/GB | run/direct CPU per GB | notes');
    for (const cell of cells) {
      const m = loopback(cell.args, cell.rampSeconds, dir);
      const d = cell.direct ? loopback(cell.direct, cell.rampSeconds, dir) : null;
      console.log(
        [
          cell.name,
          m.modelBitsPerSec === null ? 'none' : formatRate(m.modelBitsPerSec),
          m.steadyBitsPerSec === null ? 'n/a' : formatRate(m.steadyBitsPerSec),
          ratio(m.steadyBitsPerSec, m.modelBitsPerSec),
          m.verdict,
          m.relay,
          num(m.proxyCpuPerGB),
          num(m.runCpuPerGB),
          num(d?.runCpuPerGB ?? null),
          ratio(m.runCpuPerGB, d?.runCpuPerGB ?? null),
          [m.note, d ? `direct: ${d.steadyBitsPerSec === null ? 'n/a' : formatRate(d.steadyBitsPerSec)}` : ''].filter(Boolean).join('; '),
        ].join(' | '),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
