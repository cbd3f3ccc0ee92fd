/**
 * `npm run bench:link`: the link emulator's accuracy, printed as ratios.
 * For each cell: the model ceiling min(rate, window / RTT), then each path's
 * steady-state and whole-run throughput. Targets (issue 5): steady state
 * within ±5 % of the model where it applies (no loss); proxy within ±15 % of
 * the kernel harness over the whole run, loss cells included.
 *
 * Paths: `proxy` (here); `kernel` is the WAN harness of test/wan/ — register
 * its runner in PATHS when it lands; until then its columns say "not run".
 *
 *   npm run bench:link                    # the whole matrix (a few minutes)
 *   npm run bench:link -- --only "4 Mbit/s, RTT 100"   # cells whose name contains the text
 */
import { formatRate } from '../../electron/util/units.js';
import { cellName, linkMatrix, modelCeiling, type LinkCell, type PathMeasurement, type PathRunner } from './link-matrix.js';
import { measureProxyPath } from './proxy-path.js';

export const PATHS: Record<'proxy' | 'kernel', PathRunner | null> = {
  proxy: measureProxyPath,
  kernel: null,
};

function ratio(a: number | null, b: number | null): string {
  return a !== null && b !== null && b > 0 ? (a / b).toFixed(3) : 'n/a';
}

function rate(v: number | null): string {
  return v === null ? 'not run' : formatRate(v);
}

async function run(cells: LinkCell[]): Promise<void> {
  console.log('cell | model | proxy steady | proxy whole run | kernel steady | kernel whole run | proxy steady/model | kernel steady/model | proxy/kernel whole run');
  for (const cell of cells) {
    const m: Record<string, PathMeasurement> = {};
    for (const [name, runner] of Object.entries(PATHS)) {
      m[name] = runner ? await runner(cell) : { steadyBitsPerSec: null, wholeRunBitsPerSec: null, note: 'harness not available' };
    }
    const model = cell.lossRatio > 0 ? null : modelCeiling(cell);
    const p = m.proxy!;
    const k = m.kernel!;
    console.log([
      cellName(cell), model === null ? 'n/a (loss)' : formatRate(model),
      rate(p.steadyBitsPerSec), rate(p.wholeRunBitsPerSec), rate(k.steadyBitsPerSec), rate(k.wholeRunBitsPerSec),
      ratio(p.steadyBitsPerSec, model), ratio(k.steadyBitsPerSec, model), ratio(p.wholeRunBitsPerSec, k.wholeRunBitsPerSec),
    ].join(' | '));
  }
}

const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? process.argv[onlyAt + 1] ?? '' : '';
const cells = linkMatrix().filter((c) => cellName(c).includes(only));
if (cells.length === 0) {
  console.error(`no cell matches "${only}"`);
  process.exit(2);
}
await run(cells);
