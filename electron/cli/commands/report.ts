/**
 * `longhaul report --from FILE --format console|ttcp|csv|json|html [--out FILE] [--force]`: re-render a saved
 * result, or a multi-peer run's `longhaul.group/1` with the group layouts (told apart by the file's `schema`).
 * Written in pieces: the JSON of an hour-long result is longer than the longest string V8 builds.
 */
import { once } from 'node:events';
import { Option, type Command } from 'commander';
import { readSavedDocument } from '../../report/group-file.js';
import { parseSweep } from '../../sweep/sweep-file.js';
import { renderSweepReport } from '../../sweep/sweep-report.js';
import { REPORT_FORMATS, renderGroupReport, renderReportPieces, type ReportFormat } from '../../report/render.js';
import { writeWholeFile } from '../../report/report-file.js';
import { describeError } from '../../util/errors.js';
import { batched } from '../../util/json-chunks.js';
import { checkOutputFiles } from '../../util/output-paths.js';
import { EXIT_BAD_ARGS, EXIT_RUN_FAILED } from '../exit-codes.js';
import { addExamples, addHelpBlock, termLines } from '../help-layout.js';

interface ReportFlags {
  from: string;
  format: ReportFormat;
  out?: string;
  force?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('report')
    .summary('re-render a saved result: console log, ttcp line, CSV, JSON or HTML')
    .description('re-render a saved result (the --json FILE of a run) as the receiver console log, a ttcp line, CSV, JSON or a self-contained HTML report')
    .requiredOption('--from <file>', 'a saved run, multi-peer run or sweep (JSON); a sweep: --format html, csv or json')
    .addOption(new Option('-f, --format <format>', 'output format').choices(REPORT_FORMATS).default('console'))
    .option('-o, --out <file>', 'write to this file instead of the terminal')
    .option('--force', 'overwrite --out if it exists');
  addHelpBlock(
    cmd,
    'Notes:',
    termLines(
      '--from',
      "takes longhaul.result/1 (a run's --json FILE), longhaul.group/1 (a multi-peer run's: every peer's report and the aggregate's) or longhaul.sweep/1",
      8,
    ),
  );
  addExamples(cmd, ['longhaul report --from result.json --format html -o result.html', 'longhaul report --from result.json -f ttcp']);
  cmd.action(async (flags: ReportFlags) => {
    let text: Iterable<string>;
    try {
      checkOutputFiles([{ flag: '--out', path: flags.out }]);
      const doc = await readSavedDocument(flags.from);
      text =
        doc.kind === 'group'
          ? [renderGroupReport(doc.group, flags.format)]
          : doc.kind === 'sweep'
            ? [renderSweepReport(parseSweep(doc.value, flags.from), flags.format)]
            : renderReportPieces(doc.result, flags.format);
    } catch (err) {
      const e = describeError(err);
      process.stderr.write(`longhaul: ${e.code}: ${e.message}\n`);
      process.exitCode = EXIT_BAD_ARGS;
      return;
    }
    if (!flags.out) {
      await writePieces(process.stdout, text);
      return;
    }
    try {
      writeWholeFile(flags.out, text, Boolean(flags.force));
      process.stderr.write(`Report written to ${flags.out}\n`);
    } catch (err) {
      const e = describeError(err);
      process.stderr.write(`longhaul: ${e.code}: ${e.message}\n`);
      process.exitCode = e.code === 'LH_ERR_FILE_EXISTS' ? EXIT_BAD_ARGS : EXIT_RUN_FAILED;
    }
  });
}

/** Write pieces to a stream as fast as it takes them (a pipe to `less` or `gzip` may be slower than the disk). */
async function writePieces(out: NodeJS.WritableStream, pieces: Iterable<string>): Promise<void> {
  for (const piece of batched(pieces)) {
    if (!out.write(piece)) await once(out, 'drain');
  }
}
