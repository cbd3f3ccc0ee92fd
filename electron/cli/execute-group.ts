/**
 * `longhaul run HOST1 HOST2 …`: a multi-peer run from the terminal (engine/group/group-run.ts).
 * Live progress per peer and for all; Ctrl-C stops every peer keeping what was
 * measured; then each peer's summary and the aggregate, and the files: `--json`
 * the group document, `--csv` and `--log` the group layouts (report/group-*.ts),
 * written whole at the end. Returns the exit code.
 */
import type { LonghaulGroupResult } from '../contract/group.js';
import { startGroupRun, type GroupPeerTarget } from '../engine/group/group-run.js';
import type { RunParams } from '../protocol/run-params.js';
import { formatGroupCsv } from '../report/group-csv.js';
import { formatGroupConsoleLog } from '../report/group-log.js';
import { formatGroupSummary } from '../report/group-summary.js';
import { checkWritable, writeWholeFile, type FileContent } from '../report/report-file.js';
import { describeError } from '../util/errors.js';
import { jsonDocument } from '../util/json-chunks.js';
import { checkOutputFiles } from '../util/output-paths.js';
import { printable } from '../util/printable.js';
import { EXIT_BAD_ARGS, EXIT_OK, EXIT_RUN_FAILED } from './exit-codes.js';
import { GroupProgress } from './group-progress.js';
import type { ReportFlags } from './run-reports.js';
import { onStopSignal } from './stop-signals.js';

interface ExecuteGroupOptions {
  peers: GroupPeerTarget[];
  params: RunParams;
  jsonFile?: string;
  flags: ReportFlags;
  maxWorkersPerRole?: number;
}

/** Refuse bad output paths before anything runs (as a single run does); false after saying why. */
export function checkGroupFiles(o: Pick<ExecuteGroupOptions, 'jsonFile' | 'flags'>): boolean {
  try {
    checkOutputFiles([
      { flag: '--json', path: o.jsonFile },
      { flag: '--log', path: o.flags.log },
      { flag: '--csv', path: o.flags.csv },
    ]);
    for (const f of [o.jsonFile, o.flags.log, o.flags.csv]) if (f) checkWritable(f, Boolean(o.flags.force));
    return true;
  } catch (err) {
    const e = describeError(err);
    process.stderr.write(`longhaul: ${e.code}: ${e.message}\n`);
    process.exitCode = EXIT_BAD_ARGS;
    return false;
  }
}

export async function executeGroupRun(o: ExecuteGroupOptions): Promise<{ code: number; result: LonghaulGroupResult }> {
  const abort = new AbortController();
  const stopListening = onStopSignal((signal) => {
    if (signal !== 'SIGHUP') process.stderr.write('\nstopping every peer (partial results will be kept)…\n');
    abort.abort();
  });
  const progress = new GroupProgress(o.params, o.peers.length);
  const group = startGroupRun({ peers: o.peers, params: o.params, signal: abort.signal, maxWorkersPerRole: o.maxWorkersPerRole });
  group.on('sample', (i, s, side) => progress.onSample(i, s, side));
  group.on('started', () => progress.phase(`running with ${o.peers.length} peers…`));
  progress.phase(`connecting to ${o.peers.length} peers…`);
  const result = await group.result;
  stopListening();
  progress.end();
  // Files before the terminal, as for a single run.
  const problems: string[] = [];
  const written: string[] = [];
  const files: [string | undefined, () => FileContent][] = [
    [o.flags.log, () => formatGroupConsoleLog(result)],
    [o.flags.csv, () => formatGroupCsv(result)],
    // In pieces: a group embeds one result per peer, together past V8's longest string in a long run.
    [o.jsonFile, () => jsonDocument(result)],
  ];
  for (const [file, text] of files) {
    if (!file) continue;
    try {
      writeWholeFile(file, text(), true);
      written.push(file);
    } catch (err) {
      const e = describeError(err);
      problems.push(`${e.code}: ${e.message}`);
    }
  }
  const nothingMeasured = result.total.bytes === 0 && result.intervals.length === 0 && result.errors.length > 0;
  if (nothingMeasured) {
    for (const e of result.errors) process.stderr.write(`longhaul: ${e.peer === null ? '' : `peer ${e.peer + 1}: `}${e.code}: ${printable(e.message)}\n`);
  } else {
    process.stdout.write('\n' + formatGroupSummary(result, { distanceKm: o.flags.distanceKm ?? null }));
  }
  for (const p of problems) process.stderr.write(`longhaul: ${p}\n`);
  if (written.length) process.stdout.write(`Written to ${written.join(', ')}\n`);
  return { code: result.partial || problems.length ? EXIT_RUN_FAILED : EXIT_OK, result };
}
