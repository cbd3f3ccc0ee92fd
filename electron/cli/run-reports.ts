/**
 * The report side of `run` and `loopback`: the `--log`, `--csv`,
 * `--distance-km` and `--force` flags, the live report files fed from the
 * run's samples, and the end-of-run summary. Kept out of execute-run.ts so
 * the engine's CLI glue and the report layer change independently.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { LonghaulResult } from '../contract/result.js';
import type { RunHandle } from '../engine/session/run-handle.js';
import { planStreams } from '../contract/stream-plan.js';
import { type RunParams } from '../protocol/run-params.js';
import { IntervalAssembler } from '../report/interval-assembler.js';
import { openLiveReport, type LiveReport } from '../report/live-report.js';
import { checkWritable } from '../report/report-file.js';
import { formatSummary } from '../report/summary-block.js';
import { describeError } from '../util/errors.js';
import { checkOutputFiles } from '../util/output-paths.js';
import { EXIT_BAD_ARGS } from './exit-codes.js';

export interface ReportFlags {
  log?: string;
  csv?: string;
  distanceKm?: number;
  force?: boolean;
}

function distance(v: string): number {
  const km = Number(v);
  if (!/^\s*[0-9]+(\.[0-9]+)?\s*$/.test(v) || !(km > 0)) throw new InvalidArgumentError(`"${v}" is not a distance in km (a number above 0)`);
  return km;
}

/** Add the report options to a run command. */
export function addReportOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--log <file>', 'write the receiver console log (PetaBumps layout) as the run goes'))
    .addOption(new Option('--csv <file>', 'write the CSV report (one row per stream per interval, then the summary) as the run goes'))
    .addOption(new Option('--distance-km <km>', 'path length, for the Land Speed Record metric (bit-metres/s) in the summary').argParser(distance))
    .addOption(new Option('--force', 'overwrite --log, --csv and --json files that already exist'));
}

/** Reports of one run: open before it starts, fed while it goes, finished at its end. */
export class RunReports {
  private readonly live: LiveReport | null;
  private readonly assembler: IntervalAssembler;

  /** Creates the files now; throws LonghaulError (exit 2, nothing ran) if one cannot be created. */
  constructor(
    private readonly flags: ReportFlags,
    params: RunParams,
    jsonFile?: string,
  ) {
    const senders = planStreams(params).map((p) => ({ id: p.id, sender: p.sender }));
    this.assembler = new IntervalAssembler(senders, params.direction, params.omitSeconds ?? 0);
    // Names Windows would change, and two flags naming one file, are refused before anything is created.
    checkOutputFiles([
      { flag: '--json', path: jsonFile },
      { flag: '--log', path: flags.log },
      { flag: '--csv', path: flags.csv },
    ]);
    // Refuse an existing --json up front too: finding out after a 10-minute run is too late.
    if (jsonFile) checkWritable(jsonFile, Boolean(flags.force));
    this.live = flags.log || flags.csv ? openLiveReport({ logFile: flags.log, csvFile: flags.csv, force: flags.force, params, senders }) : null;
  }

  /** Follow a run: intervals go to the files as both sides report them. */
  attach(run: RunHandle): void {
    if (!this.live) return;
    const live = this.live;
    run.on('phase', (p) => {
      // The result's own start, so the live CSV's timestamps are the ones `report` renders from the saved result.
      if (p === 'start') live.start(run.startedAt ?? new Date());
    });
    run.on('sample', (s, side) => {
      for (const iv of this.assembler.add(s, side)) live.interval(iv);
    });
  }

  /** Record what the user stated about the path (`--distance-km`) in the result, so every file and a later `report` have it. */
  stamp(result: LonghaulResult): void {
    if (this.flags.distanceKm) result.distance = { meters: this.flags.distanceKm * 1000, source: 'given' };
  }

  /** Final summaries into the files; returns the problems to report (empty if none). */
  finish(result: LonghaulResult): string[] {
    if (!this.live) return [];
    this.live.finish(result);
    return this.live.errors.map((e) => `${e.code}: ${e.message}`);
  }

  /** Report files written, for the closing message. */
  get paths(): string[] {
    return this.live?.paths ?? [];
  }

  summary(result: LonghaulResult): string {
    return formatSummary(result);
  }
}

/**
 * Open a run's report files before anything starts. On a bad file (exists
 * without --force, unwritable folder) says why, sets exit code 2 (nothing
 * ran) and returns null.
 */
export function openRunReports(flags: ReportFlags, params: RunParams, jsonFile?: string): RunReports | null {
  try {
    return new RunReports(flags, params, jsonFile);
  } catch (err) {
    const e = describeError(err);
    process.stderr.write(`longhaul: ${e.code}: ${e.message}\n`);
    process.exitCode = EXIT_BAD_ARGS;
    return null;
  }
}
