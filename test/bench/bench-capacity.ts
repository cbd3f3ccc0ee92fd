/**
 * `npm run bench:capacity`: the path's capacity (`--capacity`) on the kernel WAN harness, per cell
 * (tbf rate × RTT, the receiver's tcp_rmem capped at 64 KiB so the user's run is window-limited):
 * the estimate ÷ the tbf rate's payload share (1448 / 1514), the RTTs measured after slow start and
 * the seconds the phase took. The markdown table is what docs/capacity.md carries. Needs root; run it
 * on a quiet machine (nothing else on the two cores). `--busy-core` runs it with another program
 * keeping one core busy the whole time (a laptop's browser or virus scanner): the estimate must
 * hold there too. `--cells 10x20,20x40` picks cells (Mbit/s x RTT ms); `--repeat N` runs each N times;
 * `--trace FILE` appends each run's capacity record (its receiver's slices) as a JSON line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TCP_PAYLOAD_FRACTION } from '../wan/link-config.js';
import { capacityRun, destroyCapacityLink } from '../wan/capacity-probe.js';
import { wanSkipReason } from '../wan/preflight.js';

const skip = await wanSkipReason();
if (skip) {
  process.stderr.write(`bench:capacity needs the kernel WAN harness: ${skip}\n`);
  process.exit(2);
}
const MBIT = 1e6;
const { values: opts } = parseArgs({
  options: {
    'busy-core': { type: 'boolean', default: false },
    cells: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    trace: { type: 'string' },
  },
});
const ALL_CELLS: [number, number][] = [
  [10, 20],
  [20, 40],
  [100, 20],
  [40, 100],
  [20, 300],
  [4, 1200],
];
const picked: [number, number][] = opts.cells
  ? opts.cells.split(',').map((c) => {
      const [m, r] = c.split('x').map(Number);
      if (!(m && m > 0 && r && r > 0)) throw new Error(`--cells: '${c}' is not RATExRTT (e.g. 10x20)`);
      return [m, r] as [number, number];
    })
  : ALL_CELLS;
const repeat = Math.max(1, Math.min(20, Number(opts.repeat) || 1));
const CELLS = picked.flatMap((c) => Array.from({ length: repeat }, () => c));
/** Another program keeping one core busy: a child spinning until killed (bounded by the bench's own end). */
const busy: ChildProcess | null = opts['busy-core'] ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : null;
const stopBusy = (): void => void busy?.kill('SIGKILL');
process.on('exit', stopBusy);
const rows: string[] = [];
let within = 0;
for (const [mbit, rttMs] of CELLS) {
  let row: string;
  try {
    const r = await capacityRun({ rateBitsPerSec: mbit * MBIT, oneWayDelayMs: rttMs / 2 }, rttMs >= 1000 ? 6 : 3);
    const c = r.capacity;
    const expected = mbit * MBIT * TCP_PAYLOAD_FRACTION;
    const ratio = c?.payloadBitsPerSecond ? c.payloadBitsPerSecond / expected : null;
    if (opts.trace) appendFileSync(opts.trace, `${JSON.stringify({ mbit, rttMs, busy: opts['busy-core'], ratio, capacity: c })}\n`);
    if (ratio !== null && Math.abs(ratio - 1) <= 0.05) within++;
    const span = c?.measuredFromSeconds != null && c.measuredToSeconds != null ? (c.measuredToSeconds - c.measuredFromSeconds) / (rttMs / 1000) : null;
    row =
      `| ${mbit} Mbit/s | ${rttMs} ms | ${(expected / MBIT).toFixed(2)} | ${c?.payloadBitsPerSecond ? (c.payloadBitsPerSecond / MBIT).toFixed(2) : 'none'} | ` +
      `${ratio === null ? '-' : ratio.toFixed(3)} | ${c?.slowStartEndSeconds?.toFixed(1) ?? '-'} | ${span === null ? '-' : span.toFixed(1)} | ${c?.phaseSeconds.toFixed(1) ?? '-'} | ` +
      `${((r.total.bitsPerSecond ?? 0) / MBIT).toFixed(2)} | ${c?.lowerBound ?? ''} | ${c?.series ?? 'receiver-in-order'} |`;
  } catch (err) {
    row = `| ${mbit} Mbit/s | ${rttMs} ms | run failed: ${(err as Error).message.split('\n')[0]} |`;
  } finally {
    await destroyCapacityLink();
  }
  rows.push(row);
  process.stdout.write(`${row}\n`);
}
stopBusy();
process.stdout.write(
  `\n${new Date().toISOString().slice(0, 10)}${busy ? ', one core kept busy by another program' : ''}: ${within} of ${CELLS.length} cells within ±5 %\n\n` +
    '| tbf rate | RTT | tbf payload, Mbit/s | estimate, Mbit/s | estimate / tbf payload | slow start over at, s | RTTs measured | phase, s | the capped run got, Mbit/s | floor | series |\n' +
    `|---|---|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
);
process.exit(0);
