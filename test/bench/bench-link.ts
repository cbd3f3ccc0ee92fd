/**
 * `npm run bench:link`: the link emulator's accuracy, printed as ratios.
 * For each cell: the model ceiling min(rate, window / RTT), then each path's
 * steady-state (second half) and whole-run throughput. Targets:
 * steady state within ±5 % of the model where it applies (no loss); proxy
 * within ±15 % of the kernel harness over the whole run, loss cells included.
 *
 * Paths: `proxy` (the link emulator on loopback, test/bench/proxy-path.ts) and
 * `kernel` (the WAN harness of test/wan/ with longhaul's own streams,
 * test/bench/kernel-path.ts; needs root, otherwise its columns say why not).
 * The proxy cells run one at a time first: the proxy is user-space timers in
 * this process, and measured here a concurrent kernel cell (its longhaul
 * processes starting) cost it 15-20 % (3.3 instead of 4.0 Mbit/s at 64 KiB,
 * 100 ms). The kernel cells then run a few at a time (`--kernel-parallel N`,
 * default 3): kernel TCP at these rates hardly depends on user-space timing.
 *
 * Both paths count the rate on the wire (the kernel link's tbf counts Ethernet
 * frames; the proxy's rate stage adds 66 header bytes per 1448-byte segment),
 * so both are measured against one model of TCP payload:
 * min(rate × 1448/1514, window / RTT).
 *
 *   npm run bench:link                                   # the whole matrix (about 10.5 minutes)
 *   npm run bench:link -- --only "4 Mbit/s, RTT 100"     # cells whose name contains the text
 *   npm run bench:link -- --kernel-parallel 1           # kernel cells one at a time too
 *   npm run bench:link -- --paths kernel                 # one path only (proxy or kernel)
 *   npm run bench:link -- --only "Gbit"                  # the high-rate cells only (test/bench/high-rate.ts); --no-high-rates skips them
 *   npm run bench:link -- --loss-pattern random --repeat 5 --only "1 %"   # random loss, 5 runs a cell, medians [ranges]
 *   npm run bench:link -- --cc host                      # the kernel ends keep the host's default congestion control (default: reno, what the proxy models; a child namespace may only pick from net.ipv4.tcp_allowed_congestion_control)
 */
import { formatRate } from '../../electron/contract/units.js';
import { measureKernelPath } from './kernel-path.js';
import { cellName, linkMatrix, modelCeiling, steadySecondsOf, type LinkCell, type PathMeasurement, type PathRunner } from './link-matrix.js';
import { HIGH_RATE_CELLS, runHighRateCells } from './high-rate.js';
import { measureProxyPath } from './proxy-path.js';

function argValue(name: string): string | null {
  const at = process.argv.indexOf(name);
  return at > 0 ? (process.argv[at + 1] ?? '') : null;
}

/**
 * The kernel ends' congestion control. Default Reno: the proxy models Reno (slow start, a halving
 * per loss, one MSS per RTT after it), so that is the like-for-like reference. `--cc host` keeps
 * the host's default (BBR here, which hardly slows down for random loss and paces small windows).
 */
const ccArg = argValue('--cc') ?? 'reno';
const congestionControl = ccArg === 'host' ? null : ccArg;
/** `--paths kernel` (or `proxy`): measure one path only; the other's columns say "not run". */
const paths = (argValue('--paths') ?? 'proxy,kernel').split(',');
const kernelParallel = Math.max(1, Number(argValue('--kernel-parallel') ?? 3) || 1);
/**
 * Loss cells lose every 100th segment on both paths by default (`periodic`): the same losses
 * every run, so one run per cell compares the two paths. `--loss-pattern random` draws them,
 * as a real lossy link does; then read the cells with `--repeat N` (medians and ranges): at a
 * 1.3 s RTT a 48 s cell sees a handful of random losses and one run says little.
 */
const lossPattern = argValue('--loss-pattern') ?? 'periodic';
if (lossPattern !== 'periodic' && lossPattern !== 'random') {
  console.error(`--loss-pattern: expected periodic or random, got "${lossPattern}"`);
  process.exit(2);
}
const repeat = Math.max(1, Math.min(20, Math.floor(Number(argValue('--repeat') ?? 1)) || 1));

const PATHS: Record<'proxy' | 'kernel', PathRunner | null> = {
  proxy: measureProxyPath,
  kernel: (cell) => measureKernelPath(cell, { congestionControl }),
};

function ratio(a: number | null, b: number | null): string {
  return a !== null && b !== null && b > 0 ? (a / b).toFixed(3) : 'n/a';
}

function rate(v: number | null): string {
  return v === null ? 'not run' : formatRate(v);
}

async function measure(name: string, runner: PathRunner | null, cell: LinkCell): Promise<PathMeasurement> {
  if (!runner) return { steadyBitsPerSec: null, wholeRunBitsPerSec: null, note: `${name}: harness not available` };
  try {
    return await runner(cell);
  } catch (err) {
    return { steadyBitsPerSec: null, wholeRunBitsPerSec: null, note: `${name} failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** Run `runner` over every cell, at most `parallel` at a time; results in cell order. */
async function measureAll(name: string, runner: PathRunner | null, cells: LinkCell[], parallel: number): Promise<PathMeasurement[]> {
  const out: PathMeasurement[] = new Array(cells.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < cells.length) {
      const k = next++;
      out[k] = await measure(name, runner, cells[k]!);
      process.stderr.write(`${name}: ${cellName(cells[k]!)} done\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, cells.length) }, lane));
  return out;
}

const PROXY_LOSS_PARALLEL = 3;

async function measureProxyCells(cells: LinkCell[]): Promise<PathMeasurement[]> {
  // By position, not by cell: with --repeat the same cell appears several times.
  const lossy = cells.flatMap((c, k) => (c.lossRatio > 0 ? [k] : []));
  const clean = cells.flatMap((c, k) => (c.lossRatio > 0 ? [] : [k]));
  const a = await measureAll(
    'proxy',
    PATHS.proxy,
    clean.map((k) => cells[k]!),
    1,
  );
  const b = await measureAll(
    'proxy',
    PATHS.proxy,
    lossy.map((k) => cells[k]!),
    PROXY_LOSS_PARALLEL,
  );
  const out: PathMeasurement[] = new Array(cells.length);
  clean.forEach((k, i) => {
    out[k] = a[i]!;
  });
  lossy.forEach((k, i) => {
    out[k] = b[i]!;
  });
  return out;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Several runs of one cell on one path → one measurement: medians, the whole-run range in the note. */
function combine(runs: PathMeasurement[]): PathMeasurement {
  if (runs.length === 1) return runs[0]!;
  const pick = (f: (m: PathMeasurement) => number | null): number[] => runs.map(f).filter((v): v is number => v !== null);
  const whole = pick((m) => m.wholeRunBitsPerSec);
  const range = whole.length
    ? `whole run over ${runs.length} runs: median ${formatRate(median(whole)!)} [${formatRate(Math.min(...whole))}–${formatRate(Math.max(...whole))}]`
    : `${runs.length} runs, none measured`;
  const notes = [...new Set(runs.map((m) => m.note).filter(Boolean))];
  return {
    steadyBitsPerSec: median(pick((m) => m.steadyBitsPerSec)),
    wholeRunBitsPerSec: median(whole),
    note: [range, ...notes.slice(0, 1)].join('; '),
  };
}

/** Every cell `repeat` times on one path, then combined per cell. */
async function measureRepeated(cellsToRun: LinkCell[], measureCells: (c: LinkCell[]) => Promise<PathMeasurement[]>): Promise<PathMeasurement[]> {
  const expanded = cellsToRun.flatMap((c) => Array.from({ length: repeat }, () => c));
  const all = await measureCells(expanded);
  return cellsToRun.map((_, k) => combine(all.slice(k * repeat, (k + 1) * repeat)));
}

async function run(cells: LinkCell[]): Promise<void> {
  const started = Date.now();
  const skipped = (name: string): PathMeasurement[] =>
    cells.map(() => ({ steadyBitsPerSec: null, wholeRunBitsPerSec: null, note: `${name}: not run (--paths)` }));
  // Proxy cells without loss run alone (their rates need this process's timers); the lossy
  // ones move at most a few Mbit/s and run PROXY_LOSS_PARALLEL at a time.
  const proxy = paths.includes('proxy') ? await measureRepeated(cells, measureProxyCells) : skipped('proxy');
  const kernel = paths.includes('kernel') ? await measureRepeated(cells, (c) => measureAll('kernel', PATHS.kernel, c, kernelParallel)) : skipped('kernel');
  console.log(
    `kernel congestion control: ${congestionControl ?? "the host's default"}; loss pattern: ${lossPattern}; runs per cell: ${repeat}${repeat > 1 ? ' (rates are medians)' : ''}; model = min(rate × 1448/1514, window / RTT), payload`,
  );
  console.log(
    'cell | model | proxy steady | kernel steady | proxy whole run | kernel whole run | proxy steady/model | kernel steady/model | proxy/kernel whole run | notes',
  );
  cells.forEach((cell, k) => {
    const model = cell.lossRatio > 0 ? null : modelCeiling(cell);
    const p = proxy[k]!;
    const q = kernel[k]!;
    console.log(
      [
        `${cellName(cell)} [${cell.seconds} s, steady = last ${steadySecondsOf(cell).toFixed(1)} s]`,
        model === null ? 'n/a (loss)' : formatRate(model),
        rate(p.steadyBitsPerSec),
        rate(q.steadyBitsPerSec),
        rate(p.wholeRunBitsPerSec),
        rate(q.wholeRunBitsPerSec),
        ratio(p.steadyBitsPerSec, model),
        ratio(q.steadyBitsPerSec, model),
        ratio(p.wholeRunBitsPerSec, q.wholeRunBitsPerSec),
        [p.note, q.note].filter(Boolean).join('; '),
      ].join(' | '),
    );
  });
  console.log(`${cells.length} cells in ${((Date.now() - started) / 1000).toFixed(0)} s (kernel cells ${kernelParallel} at a time)`);
}

const only = argValue('--only') ?? '';
const cells = linkMatrix(lossPattern).filter((c) => cellName(c).includes(only));
const high = HIGH_RATE_CELLS.filter((c) => c.name.includes(only));
if (cells.length === 0 && high.length === 0) {
  console.error(`no cell matches "${only}"`);
  process.exit(2);
}
if (cells.length > 0) await run(cells);
if (paths.includes('proxy') && !process.argv.includes('--no-high-rates')) runHighRateCells(only);
