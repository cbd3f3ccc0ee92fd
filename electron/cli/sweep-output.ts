/**
 * What `longhaul sweep` prints: the plan line before it starts, one line per
 * finished run, the cell table at the end. Text that came from the network
 * (a peer's error message) goes through `printable` first.
 */
import type { SweepCellSummary, SweepFile, SweepRunHeadline } from '../contract/sweep.js';
import { describeCellValues, expandPlan, planDuration } from '../contract/sweep-plan.js';
import { printable } from '../util/printable.js';
import { itemAt } from '../contract/present.js';
import { measuredPathText } from '../contract/sweep-capacity.js';

const mbit = (bps: number | null | undefined): string => (bps === null || bps === undefined ? '-' : (bps / 1e6).toFixed(1));

function seconds(s: number): string {
  if (s < 120) return `${Number(s.toFixed(1))} s`;
  const m = Math.floor(s / 60);
  return m < 120 ? `${m} min ${Math.round(s - m * 60)} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** `4 cells × 2 repeats × 1 s + 7 pauses × 2 s = 22 s (plus setup, about 1 s a run)`, for the runs still owed. */
export function planLine(f: SweepFile, owed: number): string {
  const d = planDuration(f.plan, owed);
  const all = d.cells * d.repeat;
  const runs = owed === all ? `${d.cells} cell${d.cells === 1 ? '' : 's'} × ${d.repeat} repeat${d.repeat === 1 ? '' : 's'}` : `${owed} of ${all} runs`;
  const per = d.secondsPerRun === null ? 'a byte count' : seconds(d.secondsPerRun);
  const pauses = owed > 1 ? ` + ${owed - 1} pause${owed > 2 ? 's' : ''} × ${seconds(d.pauseSeconds)}` : '';
  const total = d.totalSeconds === null ? '' : ` = ${seconds(d.totalSeconds)}`;
  return `Sweep ${f.title}: ${runs} × ${per}${pauses}${total} (plus setup, about 1 s a run), ${f.plan.order} order (seed ${f.plan.seed})`;
}

/** `[3/8] cell 2 #1  windowBytes=65536 bufferBytes=4096  812.3 Mbit/s (stream sum 812.3)  window-limited`. */
export function runLine(r: SweepRunHeadline, values: string, position: number, total: number): string {
  const verdicts = r.verdicts.length ? r.verdicts.join(', ') : 'no verdict';
  const status = r.status === 'done' ? '' : `  ${r.status.toUpperCase()}${r.error ? `: ${printable(r.error.code)}: ${printable(r.error.message)}` : ''}`;
  return `[${position}/${total}] cell ${r.cell} #${r.repeat + 1}  ${values}  ${mbit(r.bitsPerSecond)} Mbit/s (stream sum ${mbit(r.streamSumBitsPerSecond)})  ${verdicts}${status}`;
}

function verdictText(c: SweepCellSummary): string {
  const v = Object.entries(c.verdicts).map(([k, n]) => `${k} ×${n}`);
  return v.length ? v.join(', ') : '-';
}

/** The cell table: one line per cell with its swept values, runs counted, median / min / max Mbit/s (wall-clock aggregate), verdicts. */
export function cellTable(f: SweepFile): string {
  const cells = expandPlan(f.plan);
  const rows = f.cells.map((c) => [
    String(c.cell),
    describeCellValues(itemAt(cells, c.cell, 'sweep cell').values) || '(base settings)',
    `${c.runs}/${c.planned}`,
    mbit(c.bitsPerSecond?.median),
    mbit(c.bitsPerSecond?.min),
    mbit(c.bitsPerSecond?.max),
    verdictText(c),
  ]);
  const head = ['cell', 'settings', 'runs', 'median Mbit/s', 'min', 'max', 'verdicts'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (r: string[]): string =>
    r
      .map((x, i) => (i >= 3 && i <= 5 ? x.padStart(widths[i] ?? 0) : x.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n') + '\n';
}

/** One line per path the sweep measured (plan.capacity): which path, the run that measured it, the figure; none when not asked. */
export function capacityLines(f: SweepFile): string {
  if (!f.plan.capacity) return '';
  const measured = f.capacity ?? [];
  if (!measured.length) return "Path not measured: no run over it finished its tuned run (see each run's result)\n";
  return measured.map((c) => measuredPathText(c) + '\n').join('');
}
