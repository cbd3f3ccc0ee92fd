/**
 * `longhaul history [--schedule NAME | --manual] [--since WHEN] [--until WHEN] [--last N] [--format table|csv|json|html] [-o FILE]`:
 * the runs stored in History (the data folder: LONGHAUL_DATA_DIR, or the app's), one line per run or
 * one CSV/JSON row per run and direction (report/history-csv.ts), or the HTML report's schedule view of
 * those rows (report/schedule-html.ts); and `longhaul history prune`:
 * remove old runs by age or count, the rule kept in the data folder or given as flags
 * (app/history-retention.ts; docs/schedules.md, "History").
 */
import { Option, type Command } from 'commander';
import { resultsDir } from '../../app/data-dir.js';
import { readRetention, retentionFile, writeRetention } from '../../app/history-retention.js';
import { HistoryStore, type PruneOutcome } from '../../app/history-store.js';
import { RETENTION_LIMITS, retentionText, type HistoryFilter, type HistoryRetention } from '../../contract/history.js';
import { formatHistoryCsv } from '../../report/history-csv.js';
import { formatHistoryTable, localTime } from '../../report/history-table.js';
import { formatScheduleHtml } from '../../report/schedule-html.js';
import { writeWholeFile } from '../../report/report-file.js';
import { ArgumentError, describeError } from '../../util/errors.js';
import { checkOutputFiles } from '../../util/output-paths.js';
import { printable } from '../../util/printable.js';
import { EXIT_BAD_ARGS, EXIT_OK, EXIT_RUN_FAILED } from '../exit-codes.js';
import { addExamples, addHelpBlock } from '../help-layout.js';
import { intIn } from '../run-options.js';
import { ageDaysParser, whenParser } from '../history-times.js';

const FORMATS = ['table', 'csv', 'json', 'html'] as const;

interface ListFlags {
  schedule?: string;
  manual?: boolean;
  since?: Date;
  until?: Date;
  last?: number;
  format: (typeof FORMATS)[number];
  out?: string;
  force?: boolean;
}

interface PruneFlags {
  olderThan?: number;
  keep?: number;
  scope?: HistoryRetention['scope'];
  dryRun?: boolean;
  save?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('history')
    .summary('the runs kept in History: filter by schedule and time, as a table, CSV or JSON; prune old ones')
    .description(
      'list the runs kept in History (the data folder), newest last, filtered by schedule and time; ' +
        'as CSV or JSON one row per run and direction; `history prune` removes old runs (docs/schedules.md)',
    )
    .addOption(new Option('--schedule <name>', "only this schedule's runs").conflicts('manual'))
    .addOption(new Option('--manual', 'only the runs started by hand (no schedule)'))
    .addOption(new Option('--since <when>', 'runs started at or after: 2026-12-01, 2026-12-01T08:00, or back from now: 2h, 7d').argParser(whenParser()))
    .addOption(new Option('--until <when>', 'runs started before this (same forms as --since)').argParser(whenParser()))
    .addOption(new Option('--last <n>', 'only the newest N of the runs that match').argParser(intIn(1, 10_000_000, 'last')))
    .addOption(
      new Option('-f, --format <format>', 'table: one line per run; csv, json: one row per run and direction; html: a chart per peer over time')
        .choices(FORMATS)
        .default('table'),
    )
    .option('-o, --out <file>', 'write to this file instead of the terminal')
    .option('--force', 'overwrite --out if it exists');
  addHelpBlock(cmd, 'Notes:', [
    "Times without a zone are this PC's local time; the CSV and JSON give UTC (started_at_utc).",
    'CSV and JSON: one row per run and measured direction (a --bidir run has two); an empty',
    'cell (JSON null) is not measured, never 0. Columns: docs/schedules.md.',
    'HTML: one self-contained page, a throughput chart per peer (and direction) over time with',
    'the verdict, failed tests and the capacity marked; without --schedule, one part per schedule.',
  ]);
  addExamples(cmd, [
    'longhaul history --schedule lab --since 24h',
    'longhaul history --since 2026-12-01 --until 2026-12-08 -f csv -o week.csv',
    'longhaul history --schedule lab --since 7d -f html -o lab.html',
    'longhaul history prune --help',
  ]);
  cmd.action(async (flags: ListFlags) => {
    try {
      checkOutputFiles([{ flag: '--out', path: flags.out }]);
      if (flags.since && flags.until && !(flags.since < flags.until)) throw new ArgumentError('--since must be before --until', '--since');
    } catch (err) {
      process.stderr.write(`longhaul: ${describeError(err).message}\n`);
      process.exitCode = EXIT_BAD_ARGS;
      return;
    }
    const filter: HistoryFilter = {
      ...(flags.manual ? { schedule: null } : flags.schedule !== undefined ? { schedule: flags.schedule } : {}),
      ...(flags.since ? { from: flags.since.toISOString() } : {}),
      ...(flags.until ? { to: flags.until.toISOString() } : {}),
    };
    const store = new HistoryStore(resultsDir());
    try {
      const { text, summary, unreadable } = await render(store, filter, flags);
      for (const u of unreadable) process.stderr.write(`longhaul: not listed: ${printable(u.fileName, 200)}: ${printable(u.reason)}\n`);
      if (!flags.out) {
        process.stdout.write(text);
        if (flags.format === 'table') process.stdout.write(`${summary}\n`);
      } else {
        writeWholeFile(flags.out, text, Boolean(flags.force));
        process.stderr.write(`${summary}: written to ${flags.out}\n`);
      }
      process.exitCode = EXIT_OK;
    } catch (err) {
      const e = describeError(err);
      process.stderr.write(`longhaul: ${e.code}: ${e.message}\n`);
      process.exitCode = e.code === 'LH_ERR_FILE_EXISTS' ? EXIT_BAD_ARGS : EXIT_RUN_FAILED;
    }
  });
  registerPrune(cmd);
}

/** The text of a listing in its format, the line that counts it, and the files not listed. */
async function render(
  store: HistoryStore,
  filter: HistoryFilter,
  flags: ListFlags,
): Promise<{ text: string; summary: string; unreadable: { fileName: string; reason: string }[] }> {
  const limit = flags.last ?? Infinity;
  const listing = await store.list(filter, limit);
  const shown = Math.min(listing.matched, limit);
  const of = `${listing.matched === shown ? '' : `the newest ${shown} of ${listing.matched} matching; `}${listing.total} in ${store.dir}`;
  const summary = listing.matched === 0 ? `No runs match (${listing.total} in ${store.dir}).` : `${shown} run${shown === 1 ? '' : 's'} (${of})`;
  if (flags.format === 'table') return { text: formatHistoryTable([...listing.entries].reverse()), summary, unreadable: listing.unreadable };
  const { rows, unreadable } = await store.rows(filter, limit);
  const text =
    flags.format === 'csv' ? formatHistoryCsv(rows) : flags.format === 'html' ? formatScheduleHtml(rows, filter) : `${JSON.stringify(rows, null, 2)}\n`;
  return { text, summary, unreadable };
}

function registerPrune(parent: Command): void {
  const cmd = parent
    .command('prune')
    .summary('remove old runs from History, by age or count')
    .description(
      'remove old runs from History by the rule kept in the data folder (default: scheduled runs older than 90 days), ' +
        'or by the rule these flags give; says what it removed',
    )
    .addOption(
      new Option('--older-than <age>', 'remove runs older than this, e.g. 90d, 12h').argParser(
        ageDaysParser(RETENTION_LIMITS.maxAgeDays.min, RETENTION_LIMITS.maxAgeDays.max),
      ),
    )
    .addOption(new Option('--keep <n>', 'keep only the newest N runs').argParser(intIn(RETENTION_LIMITS.maxRuns.min, RETENTION_LIMITS.maxRuns.max, 'keep')))
    .addOption(new Option('--scope <which>', 'scheduled: runs a schedule started (default); all: every run').choices(['scheduled', 'all']))
    .option('--dry-run', 'say what would be removed, remove nothing')
    .option('--save', 'keep this rule: the app and the schedule runner then apply it');
  addHelpBlock(cmd, 'Notes:', [
    'A run stored by both ends on this PC goes with both its files. A file that cannot be read',
    'is left alone and named; nothing outside the results folder is touched.',
  ]);
  addExamples(cmd, [
    'longhaul history prune --dry-run',
    'longhaul history prune --older-than 30d --keep 5000 --save',
    'longhaul history prune --scope all --older-than 365d',
  ]);
  cmd.action(async (flags: PruneFlags) => {
    const store = new HistoryStore(resultsDir());
    let rule: HistoryRetention;
    let source: string;
    try {
      const given = flags.olderThan !== undefined || flags.keep !== undefined;
      if (flags.save && !given) throw new ArgumentError('--save keeps the rule --older-than and --keep give: give at least one', '--save');
      const kept = given ? null : await readRetention(store.dir);
      rule = kept ?? { scope: flags.scope ?? 'scheduled', maxAgeDays: flags.olderThan ?? null, maxRuns: flags.keep ?? null };
      if (kept && flags.scope) rule = { ...kept, scope: flags.scope };
      source = given ? 'the flags' : 'the rule kept in the data folder, or the default';
      if (flags.save && !flags.dryRun) {
        await writeRetention(store.dir, rule);
        source = `the flags, kept in ${retentionFile(store.dir)}`;
      }
    } catch (err) {
      const e = describeError(err);
      process.stderr.write(`longhaul: ${e.code}: ${e.message}\n`);
      process.exitCode = err instanceof ArgumentError ? EXIT_BAD_ARGS : EXIT_RUN_FAILED;
      return;
    }
    try {
      const out = await store.prune(rule, { dryRun: Boolean(flags.dryRun) });
      process.stdout.write(pruneText(out, source, store.dir));
      process.exitCode = EXIT_OK;
    } catch (err) {
      const e = describeError(err);
      process.stderr.write(`longhaul: ${e.code}: ${e.message}\n`);
      process.exitCode = EXIT_RUN_FAILED;
    }
  });
}

/** What a pruning did, file by file, in words. */
function pruneText(out: PruneOutcome, source: string, dir: string): string {
  const s = out.summary;
  const lines = [`Rule (${source}): ${retentionText(s.retention)}`];
  const runs = (n: number): string => `${n} run${n === 1 ? '' : 's'}`;
  if (out.removed.length === 0) lines.push(`Nothing to remove in ${dir}.`);
  else {
    lines.push(`${s.dryRun ? 'Would remove' : 'Removed'} ${runs(s.removedRuns)} (${s.removedFiles} file${s.removedFiles === 1 ? '' : 's'}) from ${dir}:`);
    for (const r of out.removed) {
      const tag = r.schedule ? `${printable(r.schedule.name, 64)} slot ${r.schedule.slot}` : 'by hand';
      lines.push(`  ${localTime(r.startedAt)}  ${tag}  ${printable(r.fileName, 200)}`);
    }
  }
  lines.push(`${runs(s.keptRuns)} kept.${s.dryRun ? ' Nothing was removed (--dry-run).' : ''}`);
  if (s.leftAlone.length) {
    lines.push(`Left alone (${s.leftAlone.length}):`);
    for (const u of s.leftAlone) lines.push(`  ${printable(u.fileName, 200)}: ${printable(u.reason)}`);
  }
  return `${lines.join('\n')}\n`;
}
