/**
 * `longhaul sweep`: many runs over a plan of settings (docs/sweeps.md), against
 * a paired responder or a responder on this PC, the sweep file and CSV
 * rewritten after every run; `--resume FILE` runs what a saved sweep owes.
 * Ctrl-C (any stop signal) stops the run in flight, keeps it as partial, saves.
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { SweepFile } from '../../contract/sweep.js';
import { describeCellValues, expandPlan } from '../../contract/sweep-plan.js';
import { DEFAULT_PORT } from '../../contract/api.js';
import { checkWritable } from '../../report/report-file.js';
import { LoopbackTarget, PeerTarget, type RunTarget } from '../../sweep/run-target.js';
import { newSweepFile, readSweepFile } from '../../sweep/sweep-file.js';
import { SweepRunner } from '../../sweep/sweep-runner.js';
import { ArgumentError, LonghaulError } from '../../util/errors.js';
import { printable } from '../../util/printable.js';
import { loadCliTrust } from '../cli-trust.js';
import { EXIT_BAD_ARGS, EXIT_OK, EXIT_RUN_FAILED } from '../exit-codes.js';
import { parseHostPort } from '../../util/net.js';
import { capacityLines, cellTable, planLine, runLine } from '../sweep-output.js';
import { capacityProgressText } from '../../contract/capacity.js';
import { addSweepOptions, PLAN_FLAGS, sweepPlanFromFlags, type SweepFlags } from '../sweep-options.js';
import { onStopSignal } from '../stop-signals.js';
import { itemAt } from '../../contract/present.js';
import { LINK_PRESETS } from '../../proxy/presets.js';
import { addExamples, addHelpBlock, termLines } from '../help-layout.js';

/** The file to resume, or a new one from the flags; and where the JSON goes. Throws ArgumentError / LonghaulError. */
async function openSweep(target: string | undefined, flags: SweepFlags): Promise<{ file: SweepFile; jsonPath: string }> {
  if (flags.resume !== undefined) {
    const given = PLAN_FLAGS.filter((k) => flags[k] !== undefined);
    if (target !== undefined || given.length)
      throw new ArgumentError(`--resume: the plan comes from the file; leave out ${target !== undefined ? 'HOST' : `--${given[0]}`}`, '--resume');
    if (flags.json !== undefined) throw new ArgumentError('--resume: the sweep is saved back into the file it resumes; leave out --json', '--json');
    return { file: await readSweepFile(flags.resume), jsonPath: flags.resume };
  }
  const plan = sweepPlanFromFlags(target === undefined ? null : parseHostPort(target, DEFAULT_PORT), flags);
  const file = newSweepFile(plan);
  const jsonPath = flags.json ?? path.resolve(`longhaul-sweep-${file.startedAt.replace(/[:.]/g, '-')}.json`);
  checkWritable(jsonPath, flags.force ?? false);
  return { file, jsonPath };
}

async function targetFor(file: SweepFile): Promise<RunTarget> {
  const trust = await loadCliTrust();
  const t = file.plan.target;
  return t.kind === 'loopback' ? new LoopbackTarget(trust) : new PeerTarget(t.host, t.port, trust);
}

export function register(program: Command): void {
  const cmd = program
    .command('sweep')
    .summary('many runs over lists of settings, each repeated, saved after every run')
    .description(
      'many runs over lists of settings (window, buffer, streams, MSS, direction, link, path), each repeated, ' + 'saved after every run (docs/sweeps.md)',
    )
    .argument('[host[:port]]', `a paired responder, e.g. 192.168.1.20 or lab-pc:${DEFAULT_PORT} (or --loopback)`);
  addSweepOptions(cmd);
  addHelpBlock(cmd, 'Notes:', [
    ...termLines('--link', `the presets: ${LINK_PRESETS.map((p) => p.name).join(', ')}; none: no emulator`, 10),
    ...termLines('--order', "shuffled: drift (a warming CPU, a neighbour's traffic) cannot follow a setting", 10),
  ]);
  addExamples(cmd, [
    'longhaul sweep --loopback -w 64K,512K,default -t 5 --repeat 2',
    'longhaul sweep 192.168.1.20 -P 1,4 --direction forward,reverse --csv sweep.csv',
    'longhaul sweep --resume sweep.json',
  ]);
  cmd.action(async (target: string | undefined, flags: SweepFlags) => {
    let opened: { file: SweepFile; jsonPath: string };
    try {
      opened = await openSweep(target, flags);
      if (flags.csv !== undefined) checkWritable(flags.csv, (flags.force ?? false) || flags.resume !== undefined);
    } catch (err) {
      if (!(err instanceof LonghaulError) || err instanceof ArgumentError) throw err;
      // A file that cannot be resumed or written is a bad argument too; the file itself is left as it was.
      process.stderr.write(`longhaul: ${err.code}: ${err.message}\n`);
      process.exitCode = EXIT_BAD_ARGS;
      return;
    }
    const { file, jsonPath } = opened;
    const runner = new SweepRunner({ file, jsonPath, csvPath: flags.csv ?? null, target: await targetFor(file) });
    const cells = expandPlan(file.plan);
    process.stdout.write(planLine(file, runner.queue.length) + '\n');
    process.stdout.write(`Saving after every run to ${jsonPath}${flags.csv ? ` and ${flags.csv}` : ''}\n`);
    const stopListening = onStopSignal((signal) => {
      if (signal === 'SIGHUP') for (const s of [process.stdout, process.stderr]) s.on('error', () => {});
      else process.stderr.write('\nstopping the sweep (the run in flight is kept as partial, every run is saved)…\n');
      runner.stop();
    });
    runner.on('progress', (p) => {
      if (p.kind === 'run-done') {
        process.stdout.write(runLine(p.run, describeCellValues(itemAt(cells, p.run.cell, 'sweep cell').values), p.position, p.total) + '\n');
      } else if (p.kind === 'capacity') {
        // A run that measures its path says so while its tuned run goes on: about 20 s on a satellite hop.
        process.stdout.write(`  ${capacityProgressText(p.capacity)}\n`);
      } else if (p.kind === 'stopped' && p.error) {
        process.stderr.write(`longhaul: sweep stopped: ${printable(p.error.code)}: ${printable(p.error.message)}\n`);
      }
    });
    const final = await runner.start();
    stopListening();
    process.stdout.write('\n' + cellTable(final) + capacityLines(final));
    const owed = runner.queue.length;
    process.stdout.write(
      `Sweep written to ${jsonPath}${flags.csv ? ` and ${flags.csv}` : ''}: ${final.runs.length} runs` +
        (owed ? `, ${owed} still owed: longhaul sweep --resume ${jsonPath}` : ', complete') +
        '\n',
    );
    process.exitCode = final.complete && runner.state === 'done' ? EXIT_OK : EXIT_RUN_FAILED;
  });
}
