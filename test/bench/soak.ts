/**
 * `npm run soak`: an hour of `longhaul loopback -P 16 -i 0.1`, then checks
 * that every process's resident memory stayed within ±10 % of its mean after
 * the first minute, and that the result, log and CSV are complete and the
 * result reads back with `report --from`. Not run by CI (soak.test.ts is its
 * 2-minute variant). Linux only (/proc).
 *
 *   npm run soak -- [--seconds 3600] [--warmup 60] [--streams 16] [--interval 0.1] [--keep DIR]
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkFiles, flatness, memoryParts, runSoak } from './soak-run.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3600' },
    warmup: { type: 'string', default: '60' },
    streams: { type: 'string', default: '16' },
    interval: { type: 'string', default: '0.1' },
    keep: { type: 'string' },
  },
});

const MAX_DEVIATION = 0.1;
const dir = values.keep ?? mkdtempSync(path.join(os.tmpdir(), 'longhaul-soak-'));
mkdirSync(dir, { recursive: true });
const mib = (b: number): string => (b / 2 ** 20).toFixed(1);
let failed = false;
try {
  const seconds = Number(values.seconds);
  console.log(`soak: ${values.streams} streams at -i ${values.interval} for ${seconds} s, files in ${dir}`);
  const out = await runSoak({ seconds, streams: Number(values.streams), intervalSeconds: Number(values.interval), dir, log: (l) => console.log(l) });
  if (out.code !== 0) {
    failed = true;
    console.log(`longhaul exited ${out.code}: ${out.stderr}`);
  }
  for (const f of flatness(out.processes, Number(values.warmup))) {
    const ok = f.maxDeviation <= MAX_DEVIATION;
    failed ||= !ok;
    console.log(
      `${ok ? 'ok  ' : 'FAIL'} ${f.name}: mean ${mib(f.meanBytes)} MiB, at most ${(f.maxDeviation * 100).toFixed(1)} % off, slope ${mib(f.slopeBytesPerMinute)} MiB/min`,
    );
  }
  // Which part moved: V8's heap (its sizing, or Longhaul's live data in the old space) or the rest (binary, native memory).
  const r = ([a, b]: [number, number]): string => `${mib(a)}-${mib(b)}`;
  for (const p of memoryParts(out.memoryDir, Number(values.warmup)))
    console.log(
      `     ${p.role} ${p.pid}: V8 heap committed ${r(p.heapCommitted)} MiB, old space in use ${r(p.oldUsed)} MiB, the rest of the RSS ${r(p.rest)} MiB`,
    );
  if (out.code === null || out.code > 1) throw new Error('no files to check');
  const files = await checkFiles(out.files);
  const complete =
    !files.result.partial && files.csvHasFinalTotal && files.logHasFinalSummary && files.csvIntervalRows >= (files.ticks - 1) * Number(values.streams);
  failed ||= !complete;
  console.log(
    `${complete ? 'ok  ' : 'FAIL'} files: result ${files.result.partial ? 'partial' : 'complete'} (${files.result.intervals.length} intervals for ${files.ticks} ticks, ${files.result.detail?.note}), ` +
      `CSV ${files.csvIntervalRows} interval rows${files.csvHasFinalTotal ? ' and its final total' : ', NO final total'}, log ${files.logHasFinalSummary ? 'closed' : 'NOT closed'}`,
  );
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
