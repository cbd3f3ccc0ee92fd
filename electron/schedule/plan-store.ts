/**
 * The schedules kept on this PC: one plan file per schedule, `<results>/schedules/<name>.plan.json`
 * (plan-file.ts says what it may hold), beside its state `<name>.json` (schedule-state.ts). The app,
 * `longhaul schedule add|pause|resume|delete` and a person with an editor all change the same files;
 * what this store writes is always a checked plan, written atomically. A file someone broke by hand
 * is listed with its line and reason, never rewritten here.
 */
import { access, mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { PlanProblem, SchedulePlan } from '../contract/schedule.js';
import { replaceFileAtomicallyAsync } from '../report/report-file.js';
import { describeError, LonghaulError } from '../util/errors.js';
import { printable } from '../util/printable.js';
import { checkPlan, NAME_RULE, parsePlanText, planText, SCHEDULE_NAME } from './plan-file.js';

const SUFFIX = '.plan.json';
/** A plan file is small; a larger one is not read whole. */
const MAX_PLAN_BYTES = 256 * 1024;

/** One plan file: its plan, or why it cannot be used (line and reason). */
type PlanFileEntry = { name: string; file: string; plan: SchedulePlan; problem: null } | { name: string; file: string; plan: null; problem: PlanProblem };

export class PlanStore {
  readonly dir: string;

  /** `resultsDir`: History's folder; schedules live in its `schedules` folder. */
  constructor(readonly resultsDir: string) {
    this.dir = path.join(resultsDir, 'schedules');
  }

  fileOf(name: string): string {
    if (!SCHEDULE_NAME.test(name)) throw new LonghaulError('LH_ERR_BAD_ARGUMENT', `"${printable(name)}" is not a schedule's name (${NAME_RULE})`);
    return path.join(this.dir, `${name}${SUFFIX}`);
  }

  /** Every plan file, by name; a broken one with its problem. */
  async list(): Promise<PlanFileEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const plans = names.filter((n) => n.endsWith(SUFFIX) && SCHEDULE_NAME.test(n.slice(0, -SUFFIX.length))).sort();
    return Promise.all(plans.map((n) => this.read(n.slice(0, -SUFFIX.length))));
  }

  /** One plan file, read and checked. Throws LH_ERR_NOT_FOUND when there is none. */
  async read(name: string): Promise<PlanFileEntry> {
    const file = this.fileOf(name);
    let text: string;
    try {
      const buf = await readFile(file);
      if (buf.length > MAX_PLAN_BYTES)
        return { name, file, plan: null, problem: { line: 1, column: 1, reason: `larger than ${MAX_PLAN_BYTES / 1024} KiB: not a plan` } };
      text = buf.toString('utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new LonghaulError('LH_ERR_NOT_FOUND', `no schedule named "${name}" (${file})`);
      return { name, file, plan: null, problem: { line: 1, column: 1, reason: `cannot be read: ${describeError(err).message}` } };
    }
    const parsed = parsePlanText(text, path.basename(file));
    return parsed.ok ? { name, file, plan: parsed.plan, problem: null } : { name, file, plan: null, problem: parsed.problem };
  }

  /** A plan that can be used, or LH_ERR_BAD_PLAN with the file's line and reason. */
  async usable(name: string): Promise<SchedulePlan> {
    const e = await this.read(name);
    if (!e.plan) throw badPlanFile(e.file, e.problem);
    return e.plan;
  }

  /**
   * Keep a plan (checked: LH_ERR_BAD_PLAN naming the field). A new name must be free unless `replace`;
   * returns the plan as kept (defaults filled in).
   */
  async save(value: unknown, opts: { replace: boolean }): Promise<SchedulePlan> {
    const checked = checkPlan(value);
    if (!checked.ok) {
      const where = checked.refusal.path.length ? ` (${checked.refusal.path.join('.')})` : '';
      throw new LonghaulError('LH_ERR_BAD_PLAN', `${checked.refusal.reason}${where}`);
    }
    const file = this.fileOf(checked.plan.name);
    if (!opts.replace && (await exists(file)))
      throw new LonghaulError('LH_ERR_FILE_EXISTS', `a schedule named "${checked.plan.name}" exists already (${file}): choose another name, or edit it`);
    await mkdir(this.dir, { recursive: true });
    await replaceFileAtomicallyAsync(file, planText(checked.plan));
    return checked.plan;
  }

  /** Pause or resume: the plan is kept as it is but for `paused`. A broken file is refused (LH_ERR_BAD_PLAN), not rewritten. */
  async setPaused(name: string, paused: boolean): Promise<SchedulePlan> {
    const plan = await this.usable(name);
    return this.save({ ...plan, paused }, { replace: true });
  }

  /** Delete the plan and its state (what it ran stays in History). Throws LH_ERR_NOT_FOUND when there is no such plan. */
  async remove(name: string): Promise<void> {
    const file = this.fileOf(name);
    try {
      await unlink(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new LonghaulError('LH_ERR_NOT_FOUND', `no schedule named "${name}" (${file})`);
      throw err;
    }
    await unlink(path.join(this.dir, `${name}.json`)).catch(() => undefined);
  }
}

/** A plan file that cannot be used, said as an editor would point at it: `FILE:LINE:COLUMN: reason`. */
export function badPlanFile(file: string, p: PlanProblem, more = ''): LonghaulError {
  return new LonghaulError('LH_ERR_BAD_PLAN', `${file}:${p.line}:${p.column}: ${p.reason}${more}`);
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
