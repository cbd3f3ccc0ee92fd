/**
 * Run a test as controller from the terminal: live progress, Ctrl-C stops
 * (keeping partial results), the summary, the JSON file. Returns the exit code.
 */
import { writeFile } from 'node:fs/promises';
import type { LonghaulResult } from '../contract/result.js';
import { startRun, type RunLinkHook } from '../engine/controller.js';
import type { RunParams } from '../engine/params.js';
import { describeError } from '../util/errors.js';
import { EXIT_OK, EXIT_RUN_FAILED } from './exit-codes.js';
import { LiveProgress } from './live-progress.js';
import { formatSummary } from './summary.js';

export interface ExecuteRunOptions {
  host: string;
  port: number;
  params: RunParams;
  jsonFile?: string;
  maxWorkersPerRole?: number;
  /** Link-emulator hook (issue 5), passed to startRun. */
  link?: RunLinkHook;
}

const PHASE_TEXT: Record<string, string> = {
  hello: 'connecting…',
  params: 'agreeing on parameters…',
  streams: 'opening data streams…',
  start: 'starting…',
};

export async function executeRun(o: ExecuteRunOptions): Promise<{ code: number; result: LonghaulResult }> {
  const abort = new AbortController();
  const onSigint = (): void => {
    process.stderr.write('\nstopping (partial results will be kept)…\n');
    abort.abort();
  };
  process.once('SIGINT', onSigint);
  const progress = new LiveProgress(o.params);
  const run = startRun({ host: o.host, port: o.port, params: o.params, signal: abort.signal, maxWorkersPerRole: o.maxWorkersPerRole, link: o.link });
  run.on('phase', (p) => {
    const text = PHASE_TEXT[p];
    if (text) progress.phase(text);
  });
  run.on('sample', (s, side) => progress.onSample(s, side));
  const result = await run.result;
  process.off('SIGINT', onSigint);
  progress.end();
  process.stdout.write('\n' + formatSummary(result));
  let code = result.partial ? EXIT_RUN_FAILED : EXIT_OK;
  if (o.jsonFile) {
    try {
      await writeFile(o.jsonFile, JSON.stringify(result, null, 2) + '\n');
      process.stdout.write(`Result written to ${o.jsonFile}\n`);
    } catch (err) {
      process.stderr.write(`longhaul: could not write ${o.jsonFile}: ${describeError(err).message}\n`);
      code = EXIT_RUN_FAILED;
    }
  }
  return { code, result };
}
