/**
 * Run a test as controller from the terminal: live progress, Ctrl-C (or
 * Ctrl-Break, a closed console window, SIGTERM: stop-signals.ts) stops it
 * keeping the partial result, the summary, the JSON file. Returns the exit code.
 */
import type { LonghaulResult } from '../contract/result.js';
import type { RunHandle, RunLinkHook } from '../engine/session/run-handle.js';
import { startRunWithCapacity } from '../engine/session/capacity-run.js';
import { capacityProgressText } from '../contract/capacity.js';
import type { RunParams } from '../protocol/run-params.js';
import type { ControllerSecurity } from '../security/controller-security.js';
import { describeError } from '../util/errors.js';
import { EXIT_OK, EXIT_RUN_FAILED } from './exit-codes.js';
import { LiveProgress } from './live-progress.js';
import { onStopSignal } from './stop-signals.js';
import { writeResultFile } from '../report/result-file.js';
import { formatSummary } from '../report/summary-block.js';
import { formatCompactSummary } from '../report/compact-summary.js';
import { formatBinaryBytes, groupDigits } from '../contract/units.js';
import { bitrateText } from '../contract/pacing-info.js';
import { UDP_UNFRAGMENTED_BYTES } from '../contract/udp.js';
import type { RunReports } from './run-reports.js';

interface ExecuteRunBase {
  host: string;
  port: number;
  params: RunParams;
  jsonFile?: string;
  maxWorkersPerRole?: number;
  /** --log/--csv files and the summary's extras (see run-reports.ts); opened by the caller before the run. */
  reports?: RunReports | null;
  /** Link-emulator hook, passed to startRun. */
  link?: RunLinkHook;
  /** --path-rate, bit/s. */
  pathRateBitsPerSec?: number | null;
  /** --capacity: measure the path after the run (engine/session/capacity-run.ts). */
  capacity?: boolean;
  /** --explain (-V, --verbose): the full detail after the run instead of the compact answer. */
  explain?: boolean;
  /** -J: the result document on standard output instead of the summary (as iperf3 -J). */
  jsonStdout?: boolean;
}

/**
 * A run with Longhaul's controller needs this PC's identity and paired peers
 * (security/load-trust.ts); a run started another way (`start`: an iperf3 server,
 * engine/iperf3/iperf3-client.ts, which has no pairing) does not.
 */
type ExecuteRunOptions = ExecuteRunBase &
  ({ security: ControllerSecurity; start?: undefined } | { start: (signal: AbortSignal) => RunHandle; security?: undefined });

const PHASE_TEXT: Record<string, string> = {
  hello: 'connecting…',
  params: 'agreeing on parameters…',
  streams: 'opening data streams…',
  start: 'starting…',
};

export async function executeRun(o: ExecuteRunOptions): Promise<{ code: number; result: LonghaulResult }> {
  const abort = new AbortController();
  const stopListening = onStopSignal((signal) => {
    if (signal === 'SIGHUP') keepGoingWithoutTerminal();
    else process.stderr.write(`\nstopping (partial results will be kept)…${signal === 'SIGTERM' ? '' : ' Ctrl-C again quits at once, without them'}\n`);
    abort.abort();
  });
  // -J: standard output carries the JSON document alone, as iperf3 -J; the progress goes to standard error.
  const out = o.jsonStdout ? process.stderr : process.stdout;
  if (!o.jsonStdout) out.write(runHeader(o) + '\n');
  const progress = new LiveProgress(o.params, out, o.link !== undefined);
  const run = o.start
    ? o.start(abort.signal)
    : startRunWithCapacity({
        capacity: o.capacity,
        host: o.host,
        port: o.port,
        params: o.params,
        signal: abort.signal,
        maxWorkersPerRole: o.maxWorkersPerRole,
        link: o.link,
        security: o.security,
        pathRateBitsPerSec: o.pathRateBitsPerSec ?? null,
      });
  run.on('phase', (p) => {
    const text = PHASE_TEXT[p];
    if (text) progress.phase(text);
  });
  run.on('sample', (s, side) => progress.onSample(s, side));
  run.on('capacity', (p) => progress.line(capacityProgressText(p)));
  o.reports?.attach(run);
  const result = await run.result;
  stopListening();
  progress.end();
  o.reports?.stamp(result);
  // Files before the terminal: after a closed console window the terminal is gone, the files must not be.
  const reportProblems = o.reports?.finish(result) ?? [];
  const jsonProblem = o.jsonFile ? await saveResult(o.jsonFile, result) : null;
  const nothingMeasured = result.intervals.length === 0 && result.total.bytes === 0 && result.errors.length > 0;
  if (nothingMeasured) {
    // A run that never got going: the error is the whole story.
    for (const e of result.errors) process.stderr.write(`longhaul: ${e.code}: ${e.message}\n`);
  } else if (o.jsonStdout) {
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  } else {
    process.stdout.write(o.explain ? '\n' + formatSummary(result) : formatCompactSummary(result));
  }
  let code = result.partial ? EXIT_RUN_FAILED : EXIT_OK;
  for (const p of reportProblems) process.stderr.write(`longhaul: ${p}\n`);
  if (reportProblems.length) code = EXIT_RUN_FAILED;
  else if (o.reports?.paths.length) out.write(`Report written to ${o.reports.paths.join(', ')}\n`);
  if (jsonProblem) {
    process.stderr.write(`longhaul: ${jsonProblem}\n`);
    code = EXIT_RUN_FAILED;
  } else if (o.jsonFile) {
    out.write(`Result written to ${o.jsonFile}\n`);
  }
  return { code, result };
}

/** The line before the intervals: where to, streams, time or bytes asked, buffer and window (as iperf3's "Connecting to host"). */
function runHeader(o: ExecuteRunOptions): string {
  const p = o.params;
  const dir = p.direction === 'reverse' ? ', reverse (-R)' : p.direction === 'bidir' ? ', both ways (--bidir)' : '';
  const limit = p.bytes !== null ? `${groupDigits(p.bytes)} bytes` : p.seconds !== null ? `${p.seconds} s` : 'until stopped';
  const window = p.windowBytes ? `window ${groupDigits(p.windowBytes)} B per stream end` : 'window: OS autotuning';
  const asked = [
    p.bitrateBitsPerSec ? `paced at ${bitrateText(p.bitrateBitsPerSec)}` : null,
    p.congestionControl ? `congestion control ${p.congestionControl}` : null,
    p.mssBytes ? `MSS ${groupDigits(p.mssBytes)} B asked` : null,
    p.zeroCopy ? 'zero-copy sender (-Z) asked' : null,
  ].filter((x): x is string => x !== null);
  const streams = `${p.streams} ${p.protocol === 'udp' ? 'UDP ' : ''}stream${p.streams === 1 ? '' : 's'}`;
  if (p.protocol === 'udp') {
    const buf = p.windowBytes ? `receive buffer ${groupDigits(p.windowBytes)} B` : "receive buffer: the OS's";
    const frag = p.bufferBytes > UDP_UNFRAGMENTED_BYTES ? ` (above ${UDP_UNFRAGMENTED_BYTES} B: fragmented on a 1500-byte MTU)` : '';
    return `Longhaul -> ${o.host}:${o.port}: ${streams}${dir}, ${limit}, datagrams of ${groupDigits(p.bufferBytes)} B${frag}, ${buf}${asked.map((x) => `, ${x}`).join('')}`;
  }
  return `Longhaul -> ${o.host}:${o.port}: ${streams}${dir}, ${limit}, buffer ${formatBinaryBytes(p.bufferBytes)}, ${window}${asked.map((x) => `, ${x}`).join('')}`;
}

/** Write the result file (its path was checked before the run), in pieces; the problem as a line to show, or null. */
async function saveResult(file: string, result: LonghaulResult): Promise<string | null> {
  try {
    await writeResultFile(file, result);
    return null;
  } catch (err) {
    const e = describeError(err);
    return `${e.code}: ${e.message}`;
  }
}

/** The terminal is gone (SIGHUP): writing to it may fail from now on, which must not stop the files being written. */
function keepGoingWithoutTerminal(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
}
