/**
 * The PetaBumps receiver table (the 2001 record run's console log), rebuilt
 * with the same arithmetic and named units:
 *
 *   Thread Realtime(s) Throughput(KB/s) Throughput(Mbit/s)
 *   0 62.344 67753.112 542.025
 *   Total Bytes(MEG) Realtime(s) Total Throughput(Trans/s) Total Throughput(Mbit/s)
 *   8448.000000 81.359 3573.274 957.369
 *
 * Units are decimal (KB = 1000 B, MEG = 10^6 B, Mbit = 10^6 bit). Each thread's
 * rate is its bytes over its own realtime; "Total Throughput(Mbit/s)" is the
 * *sum of the per-thread rates*, not total bytes over total time. That is why
 * one extra line, absent from the original, gives the wall-clock aggregate.
 */
import type { PartialRate } from '../contract/result.js';
import { partialLabel } from '../contract/partial-text.js';

/** One thread (stream) as the receiver saw it. */
interface PetaBumpsThread {
  id: number;
  bytes: number;
  /** First byte to last byte, seconds; null when unknown. */
  seconds: number | null;
  /** A partial run: its rate over the seconds measured, shown instead of the wall-clock figures and labelled (contract/partial-text.ts). */
  partialRate?: PartialRate;
}

export interface PetaBumpsInput {
  threads: PetaBumpsThread[];
  totalBytes: number;
  /** First start to last end over all threads (wall clock), seconds; null when unknown. */
  totalSeconds: number | null;
  /** Receive completions (read calls that returned data) over all threads. */
  completions: number;
}

const THREAD_HEADER = ['Thread', 'Realtime(s)', 'Throughput(KB/s)', 'Throughput(Mbit/s)'] as const;
const TOTAL_HEADER = ['Total Bytes(MEG)', 'Realtime(s)', 'Total Throughput(Trans/s)', 'Total Throughput(Mbit/s)'] as const;

/** The one-line header that names every unit the table uses. */
export const UNITS_LINE =
  'Units: KB = 1000 bytes, MEG = 10^6 bytes, Mbit = 10^6 bits; Realtime = first to last byte received, seconds; ' +
  'Trans = receive completions; Total Throughput(Mbit/s) = sum of the per-thread rates (PetaBumps convention).';

/** `n.toFixed(d)`, or "unknown" when there is no honest number. */
export function fixedOrUnknown(n: number | null, digits: number): string {
  return n === null || !Number.isFinite(n) ? 'unknown' : n.toFixed(digits);
}

function rate(bytes: number, seconds: number | null): number | null {
  return seconds !== null && seconds > 0 ? bytes / seconds : null;
}

/** Right-align each cell under its header word so the columns line up. */
export function alignRow(header: readonly string[], cells: readonly string[]): string {
  return cells.map((c, i) => c.padStart((header[i] ?? '').length)).join(' ');
}

/** The seconds a thread's row shows: in a partial run the seconds measured, else first to last byte. */
function rowSeconds(t: PetaBumpsThread): number | null {
  return t.partialRate ? t.partialRate.seconds : t.seconds;
}

/** Per-thread sum of rates in bit/s (null when no thread has a known time); a partial thread adds its rate over the seconds measured. */
function threadSumBitsPerSecond(threads: PetaBumpsThread[]): number | null {
  const rates = threads.map((t) => rate(t.bytes, rowSeconds(t))).filter((r): r is number => r !== null);
  return rates.length ? rates.reduce((a, r) => a + r * 8, 0) : null;
}

/** Wall-clock aggregate in bit/s: total bytes × 8 / first start to last end. */
function wallClockBitsPerSecond(input: PetaBumpsInput): number | null {
  const r = rate(input.totalBytes, input.totalSeconds);
  return r === null ? null : r * 8;
}

/** The table's lines: thread header, one row per thread, total header, total row, wall-clock line. */
export function formatPetaBumpsTable(input: PetaBumpsInput): string[] {
  const lines: string[] = [THREAD_HEADER.join(' ')];
  for (const t of input.threads) {
    const seconds = rowSeconds(t);
    const bytesPerSec = rate(t.bytes, seconds);
    const row = alignRow(THREAD_HEADER, [
      String(t.id),
      fixedOrUnknown(seconds, 3),
      fixedOrUnknown(bytesPerSec === null ? null : bytesPerSec / 1e3, 3),
      fixedOrUnknown(bytesPerSec === null ? null : (bytesPerSec * 8) / 1e6, 3),
    ]);
    lines.push(t.partialRate ? `${row}  (${partialLabel(t.partialRate)})` : row);
  }
  const partial = input.threads.filter((t) => t.partialRate).length;
  const sum = threadSumBitsPerSecond(input.threads);
  const transPerSec = rate(input.completions, input.totalSeconds);
  lines.push(TOTAL_HEADER.join(' '));
  const totalRow = alignRow(TOTAL_HEADER, [
    (input.totalBytes / 1e6).toFixed(6),
    fixedOrUnknown(input.totalSeconds, 3),
    fixedOrUnknown(transPerSec, 3),
    fixedOrUnknown(sum === null ? null : sum / 1e6, 3),
  ]);
  lines.push(partial ? `${totalRow}  (partial: ${partial} of ${input.threads.length} threads rated over the seconds measured)` : totalRow);
  const wall = wallClockBitsPerSecond(input);
  lines.push(
    `Wall-clock aggregate Throughput(Mbit/s) ${fixedOrUnknown(wall === null ? null : wall / 1e6, 3)}` +
      ` = Total Bytes x 8 / ${fixedOrUnknown(input.totalSeconds, 3)} s from first start to last end (not the per-thread sum above)`,
  );
  return lines;
}
