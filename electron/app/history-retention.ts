/**
 * How long History keeps runs (contract/history.ts): the rule kept in the data folder
 * (`history-retention.json`, replaced atomically), and where it is applied — by the app when it
 * starts and once a day while it runs (RetentionKeeper), by the schedule runner after each round
 * (applyHistoryRetention), and by `longhaul history prune`. A rule file that cannot be read is
 * said, and nothing is removed until it is fixed: a rule misread must never delete runs.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_HISTORY_RETENTION, RETENTION_LIMITS, type HistoryRetention, type PruneSummary, type RetentionView } from '../contract/history.js';
import { replaceFileAtomicallyAsync } from '../report/report-file.js';
import { describeError, LonghaulError } from '../util/errors.js';
import { RETENTION_FILE } from './history-files.js';
import type { HistoryStore, PruneOutcome } from './history-store.js';

const FILE_SCHEMA = 'longhaul.history-retention/1';
/** The app applies the rule this long after it starts (not in the way of its first screen), then every day. */
const FIRST_DELAY_MS = 5_000;
const EVERY_MS = 86_400_000;

export const retentionSchema = z
  .object({
    scope: z.enum(['scheduled', 'all']),
    maxAgeDays: z.number().min(RETENTION_LIMITS.maxAgeDays.min).max(RETENTION_LIMITS.maxAgeDays.max).nullable(),
    maxRuns: z.number().int().min(RETENTION_LIMITS.maxRuns.min).max(RETENTION_LIMITS.maxRuns.max).nullable(),
  })
  .strict() satisfies z.ZodType<HistoryRetention>;

const instant = z.iso.datetime({ offset: true });

/** A listing's or an export's filter as it arrives over IPC or the WebSocket. */
export const historyFilterSchema = z
  .object({ schedule: z.string().min(1).max(64).nullable().optional(), from: instant.optional(), to: instant.optional() })
  .strict()
  .refine((f) => f.from === undefined || f.to === undefined || Date.parse(f.from) < Date.parse(f.to), 'from must be before to');

const fileSchema = retentionSchema.extend({ schema: z.literal(FILE_SCHEMA) });

/** The rule file's path for a results folder. */
export function retentionFile(dir: string): string {
  return path.join(dir, RETENTION_FILE);
}

/**
 * The rule in force for a results folder: its file's, or the default when there is none.
 * Throws LonghaulError (LH_ERR_BAD_ARGUMENT naming the file and what is wrong, LH_ERR_IO) otherwise.
 */
export async function readRetention(dir: string): Promise<HistoryRetention> {
  const file = retentionFile(dir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_HISTORY_RETENTION;
    throw new LonghaulError('LH_ERR_IO', `cannot read ${file}: ${describeError(err).message}`);
  }
  const fix = `fix it, or delete it to go back to the default (90 days of scheduled runs); nothing is pruned until then`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `${file} is not JSON (${(err as Error).message}): ${fix}`);
  }
  const r = fileSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `${file} is not a valid ${FILE_SCHEMA} rule${where}: ${issue?.message ?? 'invalid'}: ${fix}`);
  }
  return { scope: r.data.scope, maxAgeDays: r.data.maxAgeDays, maxRuns: r.data.maxRuns };
}

/** Keep a rule for a results folder (checked first; the file is replaced whole). Throws LonghaulError. */
export async function writeRetention(dir: string, rule: HistoryRetention): Promise<void> {
  const r = retentionSchema.safeParse(rule);
  if (!r.success) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `not a retention rule: ${r.error.issues[0]?.message ?? 'invalid'}`);
  await replaceFileAtomicallyAsync(retentionFile(dir), JSON.stringify({ schema: FILE_SCHEMA, ...r.data }, null, 2) + '\n');
}

/**
 * Apply the rule kept in the history's folder (the default when none is kept): for the schedule runner
 * after each round, and the app. Removes whole runs, names what it left alone (contract/history.ts,
 * HistoryStore.prune). Throws LonghaulError when the rule file cannot be read; nothing is removed then.
 */
export async function applyHistoryRetention(history: HistoryStore, opts: { now?: Date } = {}): Promise<PruneOutcome> {
  const rule = await readRetention(history.dir);
  return history.prune(rule, opts.now ? { now: opts.now } : {});
}

/** The app's side: the rule applied when the app starts and once a day, what it last did, and the rule's edits. */
export class RetentionKeeper {
  private lastPrune: PruneSummary | null = null;
  private problem: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** One pruning at a time: a save during the daily one waits for it. */
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly history: HistoryStore) {}

  /** Apply the rule shortly after the start, then every day. Timers are unref'd: they never keep a process alive. */
  start(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      void this.applyNow();
      this.timer = setInterval(() => void this.applyNow(), EVERY_MS);
      this.timer.unref();
    }, FIRST_DELAY_MS);
    this.timer.unref();
  }

  /** Stop the timers and wait for a pruning in progress. Idempotent. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  async view(): Promise<RetentionView> {
    try {
      return { retention: await readRetention(this.history.dir), lastPrune: this.lastPrune, problem: this.problem };
    } catch (err) {
      return { retention: DEFAULT_HISTORY_RETENTION, lastPrune: this.lastPrune, problem: describeError(err).message };
    }
  }

  /** Keep a new rule and apply it at once. */
  async set(rule: HistoryRetention): Promise<RetentionView> {
    await writeRetention(this.history.dir, rule);
    await this.applyNow();
    return this.view();
  }

  /** What a rule would remove now. */
  async preview(rule: HistoryRetention): Promise<PruneSummary> {
    return (await this.history.prune(rule, { dryRun: true })).summary;
  }

  /** Apply the kept rule now (also after each scheduled test); never throws (the reason is kept for the History screen). */
  async applyNow(): Promise<void> {
    const run = this.running.then(async () => {
      try {
        this.lastPrune = (await applyHistoryRetention(this.history)).summary;
        this.problem = null;
      } catch (err) {
        this.problem = describeError(err).message;
      }
    });
    this.running = run;
    await run;
  }
}
