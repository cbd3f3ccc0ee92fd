/**
 * Reports written as a run goes (`--log`, `--csv`): one write per interval,
 * each leaving the file complete — every interval so far plus a summary
 * marked partial — so a run that dies, even by SIGKILL, leaves a readable
 * file. `finish(result)` adds any interval not yet written (from the result)
 * and replaces the provisional summary with the final one.
 *
 *   const live = openLiveReport({ logFile, csvFile, force, params, senders }); // throws on a bad path
 *   live.start(new Date());       // when the run starts
 *   live.interval(iv);            // per interval
 *   live.finish(result);          // once; closes the files
 *   live.errors                   // files that failed (the others went on)
 */
import type { IntervalResult, LonghaulResult, ResultParams, Side } from '../contract/result.js';
import { ArgumentError, type LonghaulError } from '../util/errors.js';
import { sameFile } from '../util/output-paths.js';
import { consoleLogHead, consoleLogInterval, consoleLogProvisional, consoleLogSummary } from './console-log.js';
import { csvHeader, csvRows, intervalRows, provisionalRows, summaryRows, type CsvRunContext } from './csv-report.js';
import { IntervalTotals } from './interval-totals.js';
import { ReportFile } from './report-file.js';

interface LiveReportOptions {
  logFile?: string;
  csvFile?: string;
  /** Overwrite existing files (otherwise they are refused before the run starts). */
  force?: boolean;
  params: ResultParams;
  /** Which end sends each stream (the engine's stream plan). */
  senders: ReadonlyArray<{ id: number; sender: Side }>;
}

export interface LiveReport {
  /** The run started now (wall clock): anchors the CSV's ISO timestamps. */
  start(at: Date): void;
  interval(iv: IntervalResult): void;
  finish(result: LonghaulResult): void;
  /** Close without a final summary (the provisional one stays). Idempotent. */
  close(): void;
  /** Paths written to. */
  readonly paths: string[];
  /** One error per file that stopped taking writes. */
  readonly errors: LonghaulError[];
}

class LiveReportFiles implements LiveReport {
  private readonly totals = new IntervalTotals();
  private readonly csvContext: CsvRunContext;

  constructor(
    private readonly log: ReportFile | null,
    private readonly csv: ReportFile | null,
    o: LiveReportOptions,
  ) {
    this.csvContext = { params: o.params, startedAt: new Date(), senders: new Map(o.senders.map((s) => [s.id, s.sender])) };
    this.log?.write(consoleLogHead(o.params), consoleLogProvisional(this.totals));
    this.csv?.write(csvHeader(), csvRows(provisionalRows(this.csvContext, this.totals)));
  }

  get paths(): string[] {
    return [this.log, this.csv].filter((f): f is ReportFile => f !== null).map((f) => f.path);
  }

  get errors(): LonghaulError[] {
    return [this.log?.error, this.csv?.error].filter((e): e is LonghaulError => Boolean(e));
  }

  start(at: Date): void {
    this.csvContext.startedAt = at;
  }

  interval(iv: IntervalResult): void {
    if (this.totals.last && iv.index <= this.totals.last.index) return;
    this.totals.add(iv);
    this.log?.write(consoleLogInterval(iv), consoleLogProvisional(this.totals));
    this.csv?.write(csvRows(intervalRows(this.csvContext, iv)), csvRows(provisionalRows(this.csvContext, this.totals)));
  }

  finish(result: LonghaulResult): void {
    const lastIndex = this.totals.last?.index ?? 0;
    // The result keeps its last ticks as sampled; an interval merging ticks already written (a peer far behind) would count them twice.
    const rest = result.intervals.filter((iv) => iv.index - (iv.ticks ?? 1) >= lastIndex);
    this.csvContext.startedAt = new Date(result.startedAt);
    this.log?.write(rest.map(consoleLogInterval).join(''), consoleLogSummary(result));
    this.csv?.write(csvRows(rest.flatMap((iv) => intervalRows(this.csvContext, iv))), csvRows(summaryRows(result)));
    this.close();
  }

  close(): void {
    this.log?.close();
    this.csv?.close();
  }
}

/** Create the report files now; throws a LonghaulError (nothing left open) if one cannot be created. */
export function openLiveReport(o: LiveReportOptions): LiveReport {
  if (o.logFile && o.csvFile && sameFile(o.logFile, o.csvFile, { platform: process.platform, cwd: process.cwd() })) {
    throw new ArgumentError(`--log and --csv name the same file (${o.logFile}); give each its own`);
  }
  const log = o.logFile ? ReportFile.open(o.logFile, Boolean(o.force)) : null;
  let csv: ReportFile | null = null;
  try {
    csv = o.csvFile ? ReportFile.open(o.csvFile, Boolean(o.force)) : null;
  } catch (err) {
    log?.discard();
    throw err;
  }
  const live = new LiveReportFiles(log, csv, o);
  const failed = live.errors[0];
  if (failed) {
    // The header did not go out (a full disk, a device): better to say so before the run than after it.
    live.close();
    throw failed;
  }
  return live;
}
