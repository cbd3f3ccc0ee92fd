/**
 * `longhaul run|loopback -u --udp-ramp [LOSS]` (contract/udp-ramp.ts): the plan line, a table row per
 * step as it ends, the answer; `--json FILE` (rewritten after every step, so a stop or a crash keeps
 * the steps run) or `-J` for the longhaul.udp-ramp/1 document. Ctrl-C ends the ramp after the step
 * that is running. Exit 0 when the ramp found an answer, 1 when a step failed or none was carried.
 */
import { rampAnswered, type UdpRampOutcome, type UdpRampStep } from '../contract/udp-ramp.js';
import type { LonghaulResult } from '../contract/result.js';
import type { RunParams } from '../protocol/run-params.js';
import { replaceFileAtomicallyAsync } from '../report/report-file.js';
import { RAMP_TABLE_HEAD, rampAnswer, rampPlanLine, rampStepLine } from '../contract/udp-ramp-text.js';
import type { RunTarget } from '../sweep/run-target.js';
import { runUdpRamp, type UdpRampOptions } from '../sweep/udp-ramp.js';
import { describeError } from '../util/errors.js';
import { EXIT_OK, EXIT_RUN_FAILED } from './exit-codes.js';
import { onStopSignal } from './stop-signals.js';

interface RampRun {
  target: RunTarget;
  params: RunParams;
  options: UdpRampOptions;
  jsonFile?: string;
  jsonStdout?: boolean;
}

/** Run the ramp, print as it goes; resolves with the exit code. */
export async function executeRamp(o: RampRun): Promise<number> {
  const out = o.jsonStdout ? process.stderr : process.stdout;
  const stop = new AbortController();
  const unhook = onStopSignal(() => {
    out.write('Stopping after this step…\n');
    stop.abort();
  });
  out.write(`${rampPlanLine(o.target.label, o.params.streams, o.params.seconds ?? 0, o.options.lossThreshold)}\n${RAMP_TABLE_HEAD}\n`);
  const steps: UdpRampStep[] = [];
  const results: LonghaulResult[] = [];
  let saving: Promise<unknown> = Promise.resolve();
  let saveProblem: string | null = null;
  const save = (doc: unknown): void => {
    if (!o.jsonFile) return;
    const file = o.jsonFile;
    saving = saving.then(() =>
      replaceFileAtomicallyAsync(file, JSON.stringify(doc, null, 2) + '\n').catch((err: unknown) => (saveProblem = describeError(err).message)),
    );
  };
  let outcome: UdpRampOutcome;
  try {
    outcome = await runUdpRamp(o.target, o.params, o.options, stop.signal, {
      onStep: (step, result) => {
        steps.push(step);
        results.push(result);
        out.write(`${rampStepLine(step, steps.length - 1)}\n`);
        save({ schema: 'longhaul.udp-ramp/1', partial: true, lossThreshold: o.options.lossThreshold, steps, results });
      },
    });
  } catch (err) {
    unhook();
    const e = describeError(err);
    process.stderr.write(`longhaul: the ramp stopped: ${e.code}: ${e.message}\n`);
    await saving;
    return EXIT_RUN_FAILED;
  }
  unhook();
  save(outcome);
  await saving;
  out.write(`${rampAnswer(outcome)}\n`);
  if (o.jsonStdout) process.stdout.write(JSON.stringify(outcome, null, 2) + '\n');
  if (o.jsonFile) out.write(saveProblem ? `longhaul: the ramp was not written to ${o.jsonFile}: ${saveProblem}\n` : `Ramp written to ${o.jsonFile}\n`);
  return rampAnswered(outcome.end) && !saveProblem ? EXIT_OK : EXIT_RUN_FAILED;
}
