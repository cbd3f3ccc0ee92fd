/**
 * History's filter and its retention rule (docs/schedules.md, "History: filter, CSV, pruning"):
 * the types the app's channels, the CLI's `longhaul history` and the stores share, the default
 * rule and its limits, and the rule in words. Pure, no Node imports: the renderer shares it.
 */
import type { Direction, LimiterVerdict, Side } from './result.js';

/** One stored run as History lists it (electron/app/history-store.ts). */
export interface HistoryEntry {
  id: string;
  startedAt: string;
  controller: string;
  responder: string;
  streams: number;
  direction: Direction;
  bytes: number;
  /** The wall-clock aggregate; a partial run's rate over the seconds measured (its `partialRate`, shown with "(partial)"); null: unknown. */
  bitsPerSecond: number | null;
  partial: boolean;
  /** The emulated link's preset ('custom' when typed), or null for a direct run. */
  link: string | null;
  fileName: string;
  /** Which side stored it: only a run this PC started (`controller`) can be run again from here. */
  writtenBy: Side;
  /** The schedule that ran it (`result.schedule`), or null for a run started by hand. */
  schedule: { name: string; slot: number } | null;
  /** `tcp`, or `udp` (`-u`). */
  protocol: 'tcp' | 'udp';
  /** Each measured direction's verdict, in the result's order (two for `--bidir`); empty when not diagnosed. */
  verdicts: LimiterVerdict[];
}

/**
 * History's listing for a filter: the newest matching runs (at most a few hundred; the rest stay on disk and
 * in the CSV export), how many runs matched and are stored, and the files that could not be read (named, with why).
 */
export interface HistoryListing {
  entries: HistoryEntry[];
  unreadable: { fileName: string; reason: string }[];
  /** Runs that match the filter (`entries` holds the newest of them). */
  matched: number;
  /** Runs in the results folder. */
  total: number;
  /** The schedules whose runs are in the folder, by name (what a filter can pick). */
  scheduleNames: string[];
}

/**
 * Which runs a listing or an export takes. Absent fields do not filter. Times are ISO 8601
 * instants; a run is in the range when it started at or after `from` and before `to`.
 */
export interface HistoryFilter {
  /** A schedule's name: that schedule's runs; null: runs no schedule started (by hand); absent: every run. */
  schedule?: string | null;
  from?: string;
  to?: string;
}

/**
 * How long History keeps runs: the user's choice of an age, a count, or both (a run goes when
 * either rule says so); neither keeps everything. `scope` says which runs the rule applies to.
 */
export interface HistoryRetention {
  /** `scheduled`: only runs a schedule started (hand-made runs are never removed by it); `all`: every run. */
  scope: 'scheduled' | 'all';
  /** Remove runs that started more than this many days ago (fractions allowed); null: no age limit. */
  maxAgeDays: number | null;
  /** Keep at most this many runs (the newest) of those in scope; null: no count limit. */
  maxRuns: number | null;
}

/**
 * Keep 90 days of scheduled runs. Hand-made runs are not touched by default: a result someone
 * ran and kept on purpose vanishing silently after 90 days would surprise; `scope: 'all'` extends it.
 */
export const DEFAULT_HISTORY_RETENTION: HistoryRetention = { scope: 'scheduled', maxAgeDays: 90, maxRuns: null };

/** Bounds of the rule's figures: up to a century, and up to ten million runs. */
export const RETENTION_LIMITS = { maxAgeDays: { min: 1 / 24, max: 36_500 }, maxRuns: { min: 1, max: 10_000_000 } } as const;

/** What one pruning did (or, for a dry run, would do). */
export interface PruneSummary {
  /** ISO 8601: when it ran. */
  at: string;
  dryRun: boolean;
  /** The rule applied. */
  retention: HistoryRetention;
  /** Runs removed (each with every file it had: a run stored by both ends on this PC has two). */
  removedRuns: number;
  removedFiles: number;
  /** Runs left in the folder. */
  keptRuns: number;
  /** Files left alone because they could not be read (or could not be removed), with why. */
  leftAlone: { fileName: string; reason: string }[];
}

/** The History screen's retention panel: the rule in force and what it last did (null: not yet in this session). */
export interface RetentionView {
  retention: HistoryRetention;
  lastPrune: PruneSummary | null;
  /** Why the last automatic pruning could not run (an unreadable rule file…), or null. */
  problem: string | null;
}

/** A number of days as a person says it: `90 days`, `1 day`, `12 hours`. */
function daysText(days: number): string {
  if (days < 1) {
    const hours = Math.round(days * 24 * 10) / 10;
    return `${hours} hour${hours === 1 ? '' : 's'}`;
  }
  const d = Math.round(days * 10) / 10;
  return `${d} day${d === 1 ? '' : 's'}`;
}

/** The rule in one sentence: "Scheduled runs older than 90 days are removed; runs started by hand are kept." */
export function retentionText(r: HistoryRetention): string {
  const which = r.scope === 'scheduled' ? 'Scheduled runs' : 'Runs';
  const rules = [
    ...(r.maxAgeDays !== null ? [`older than ${daysText(r.maxAgeDays)}`] : []),
    ...(r.maxRuns !== null ? [`beyond the newest ${r.maxRuns.toLocaleString('en-US')}`] : []),
  ];
  if (rules.length === 0) return `${r.scope === 'scheduled' ? 'Scheduled runs' : 'All runs'} are kept: no age or count limit.`;
  const tail = r.scope === 'scheduled' ? '; runs started by hand are kept' : '';
  return `${which} ${rules.join(' or ')} are removed${tail}.`;
}
