/**
 * One longhaul run from A to B for a bench cell, bounded by the cell, not by
 * the sender's drain. After the run's time the engine drains what the
 * sender's socket still holds (up to twice the window); on a lossy 1.3 s link
 * with Reno that is megabytes at a few hundred kbit/s, minutes of waiting for
 * bytes the cell does not count. So the receiver's intervals are read from
 * the live `--csv` report, and the run gets DRAIN_ALLOWANCE_MS after its last
 * counted interval before it is cut (the result document is then absent).
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { REPO_ROOT } from '../wan/helper-build.js';
import { waitForOutput } from '../wan/run-cmd.js';
import type { WanLink } from '../wan/wan-link.js';

const LONGHAUL_BIN = join(REPO_ROOT, 'bin', 'longhaul.js');
const DRAIN_ALLOWANCE_MS = 8_000;
const POLL_MS = 500;

/** A receiver interval: end time (receiver clock), length, bytes received. */
export interface ReceivedInterval {
  t: number;
  seconds: number;
  receivedBytes: number | null;
}

interface CellRun {
  intervals: ReceivedInterval[];
  /** The result document, null when the run was cut while draining. */
  result: LonghaulResult | null;
}

/** The receiver intervals in a longhaul CSV report so far (single stream). */
async function csvIntervals(file: string): Promise<ReceivedInterval[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  // The last line may be half written: keep whole records only.
  const whole = text.slice(0, text.lastIndexOf('\r\n') + 2);
  const rows = parse(whole, { columns: true, bom: true, skip_empty_lines: true, relax_column_count: true }) as Record<string, string>[];
  return rows
    .filter((r) => r.row_type === 'interval')
    .map((r) => ({
      t: Number(r.t_end_seconds),
      seconds: Number(r.duration_seconds),
      receivedBytes: r.received_bytes === '' || r.received_bytes === undefined ? null : Number(r.received_bytes),
    }));
}

/** Run `longhaul run` in A against `longhaul listen --once` in B until `countUntilT` (receiver clock) is covered. */
export async function runCell(link: WanLink, flags: string[], seconds: number, countUntilT: number): Promise<CellRun> {
  const dir = await mkdtemp(join(tmpdir(), 'longhaul-bench-'));
  const listener = link.spawnInB(process.execPath, [LONGHAUL_BIN, 'listen', '--port', '0', '--once'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const port = (await waitForOutput(listener, /listening on \S+:(\d+)/, 15_000))[1]!;
    const csv = join(dir, 'run.csv');
    const json = join(dir, 'result.json');
    const controller = link.spawnInA(
      process.execPath,
      [LONGHAUL_BIN, 'run', `${link.bAddr}:${port}`, '-t', String(seconds), '--csv', csv, '--json', json, ...flags],
      { stdio: 'ignore' },
    );
    const exited = new Promise<void>((resolve) => controller.once('close', () => resolve()));
    // Handshake and start take a few RTTs (and a retransmitted SYN at 1.3 s): allow 20 RTTs + 20 s in all.
    const deadline = Date.now() + seconds * 1000 + 40 * link.config.oneWayDelayMs + 20_000;
    let covered: number | null = null;
    let done = false;
    void exited.then(() => (done = true));
    while (!done && Date.now() < deadline) {
      if (covered === null && (await csvIntervals(csv)).some((i) => i.t >= countUntilT)) covered = Date.now();
      if (covered !== null && Date.now() - covered > DRAIN_ALLOWANCE_MS) break;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    if (!done) controller.kill('SIGKILL');
    await exited;
    const result = done ? (JSON.parse(await readFile(json, 'utf8').catch(() => 'null')) as LonghaulResult | null) : null;
    return { intervals: result ? result.intervals : await csvIntervals(csv), result };
  } finally {
    if (listener.exitCode === null && listener.signalCode === null) listener.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}
