/**
 * `longhaul schedule` (issue 39, docs/schedules.md): the same test against paired peers every
 * INTERVAL or at a cron line's times, one test at a time, each result saved to History tagged with
 * its schedule; `--metrics [ADDR:]PORT` serves the last results to Prometheus.
 *
 *   longhaul schedule --every 20s [run flags] PEER...       run it now, until Ctrl-C (--save: keep it too)
 *   longhaul schedule add NAME --every 15m [run flags] PEER... keep a plan (the app runs it as well)
 *   longhaul schedule list | show NAME | pause NAME | resume NAME | delete NAME
 *   longhaul schedule run [NAME...]                          run the kept plans, following edits of their files
 */
import { Option, type Command } from 'commander';
import { DEFAULT_PORT } from '../../contract/api.js';
import { SCHEDULE_PLAN_SCHEMA, type SchedulePlan } from '../../contract/schedule.js';
import { resultsDir } from '../../app/data-dir.js';
import { checkPlan, NAME_RULE } from '../../schedule/plan-file.js';
import { PlanStore } from '../../schedule/plan-store.js';
import { ArgumentError, LonghaulError } from '../../util/errors.js';
import { EXIT_BAD_ARGS, EXIT_RUN_FAILED } from '../exit-codes.js';
import { executeSchedule } from '../execute-schedule.js';
import { addExamples, addHelpBlock } from '../help-layout.js';
import { addRunOptions, intIn, parseTarget, runParamsFromFlags, type RunFlags } from '../run-options.js';
import { listPlans, showPlan } from '../schedule-plans.js';

interface PlanFlags extends RunFlags {
  every?: string;
  cron?: string;
  port?: number;
}

interface QuickFlags extends PlanFlags {
  name: string;
  metrics?: string;
  rounds?: number;
  save?: boolean;
}

/** Which flag a plan's refused field came from. */
const FLAG_OF: Record<string, string> = {
  every: '--every',
  cron: '--cron',
  name: '--name',
  peers: 'HOST',
  capacity: '--capacity',
  'test.bytes': '-n',
  'test.seconds': '-t',
};

/** The plan the flags describe, checked by the plans' one rule (plan-file.ts); ArgumentError names the flag. */
function planFromFlags(name: string, targets: string[], flags: PlanFlags, paused: boolean): SchedulePlan {
  if (flags.udpRamp !== undefined)
    throw new ArgumentError('schedule with --udp-ramp: a ramp is many runs; a schedule repeats one test (schedule -u -b RATE)', '--udp-ramp');
  if ((flags.every === undefined) === (flags.cron === undefined))
    throw new ArgumentError('schedule: give --every INTERVAL (e.g. 15m) or --cron "LINE" (e.g. "0 * * * *"), one of the two', '--every');
  const peers = targets.map((t) => {
    const p = parseTarget(t, flags.port, DEFAULT_PORT);
    return p.host.includes(':') ? `[${p.host}]:${p.port}` : `${p.host}:${p.port}`;
  });
  const checked = checkPlan({
    schema: SCHEDULE_PLAN_SCHEMA,
    name,
    ...(flags.every !== undefined ? { every: flags.every } : { cron: flags.cron }),
    peers,
    test: runParamsFromFlags(flags),
    capacity: flags.capacity === true,
    paused,
  });
  if (checked.ok) return checked.plan;
  const path = checked.refusal.path.join('.');
  const flag = FLAG_OF[path] ?? FLAG_OF[String(checked.refusal.path[0])] ?? 'the run flags';
  throw new ArgumentError(`schedule with ${flag}: ${checked.refusal.reason}`, flag);
}

/** The flags that say when (both forms that define a plan). */
function addWhenOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--every <interval>', 'a round every INTERVAL, e.g. 20s, 15m, 1h (5 s to 7 days)'))
    .addOption(new Option('--cron <line>', 'a round at a cron line\'s times, e.g. "0 * * * *" (min hour day month weekday)'))
    .addOption(new Option('-p, --port <n>', `the peers' port when HOST has no :PORT (default ${DEFAULT_PORT})`).argParser(intIn(1, 65535, 'port')));
}

/** An action whose Longhaul errors are said in one line (a bad plan, a missing one: exit 2; anything else: 1). */
function said<A extends unknown[]>(action: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (err) {
      if (!(err instanceof LonghaulError) || err instanceof ArgumentError) throw err;
      process.stderr.write(`longhaul: ${err.code}: ${err.message}\n`);
      process.exitCode =
        err.code === 'LH_ERR_BAD_PLAN' || err.code === 'LH_ERR_NOT_FOUND' || err.code === 'LH_ERR_FILE_EXISTS' ? EXIT_BAD_ARGS : EXIT_RUN_FAILED;
    }
  };
}

const store = (): PlanStore => new PlanStore(resultsDir());

export function register(program: Command): void {
  const cmd = program
    .command('schedule')
    .summary('the same test against paired peers every INTERVAL, kept as named plans, with metrics for Prometheus')
    .description(
      "run the same test against each paired peer every INTERVAL (or at a cron line's times), one test at a time, each result " +
        'saved to History tagged with the schedule; plans can be kept by name (add), paused, resumed, deleted and run (run); ' +
        '--metrics serves the last results to Prometheus (docs/schedules.md)',
    )
    .argument('<host[:port]...>', `the paired responder(s), e.g. 192.168.1.20 lab-pc:${DEFAULT_PORT}`)
    .addOption(new Option('--name <name>', "the schedule's name, on its metrics and in History").default('schedule'))
    .addOption(new Option('--save', 'keep it as a plan under --name, run from its file (edits apply)'))
    .addOption(new Option('--metrics <[addr:]port>', 'serve /metrics (OpenMetrics) here; ADDR: 127.0.0.1 unless given'))
    .addOption(new Option('--rounds <n>', 'stop after N rounds (default: until Ctrl-C)').argParser(intIn(1, 1_000_000, 'rounds')))
    // `schedule add NAME --every …`: the flags after a subcommand are the subcommand's.
    .enablePositionalOptions()
    // Subcommands listed as `add NAME HOST[:PORT]...`, not with `[options]`: the options' column stays narrow.
    .configureHelp({ subcommandTerm: (c) => [c.name(), ...c.registeredArguments.map((a) => argTerm(a.name(), a.required, a.variadic))].join(' ') });
  addWhenOptions(cmd);
  addRunOptions(cmd);
  addHelpBlock(cmd, 'Notes:', [
    "Slots are whole intervals since 1970 (UTC), or a cron line's times (this PC's clock), plus an",
    'offset fixed for this PC and name (up to a tenth of the interval, at most 30 s), so laptops on one',
    'schedule do not start at once. A round that overruns, or a PC that slept, runs the current slot',
    'once, never the missed ones. A peer busy with another controller is tried again with back-off.',
    'Kept plans: schedules/NAME.plan.json in the results folder; the app runs them too.',
  ]);
  addExamples(cmd, [
    'longhaul schedule --every 15m lab-pc branch-pc -t 10',
    'longhaul schedule --every 1h -u -b 2M --name voice satellite-pc --metrics 9464',
    'longhaul schedule add nightly --cron "0 2 * * *" -P 4 lab-pc',
    'longhaul schedule run --metrics 9464',
  ]);
  cmd.action(
    said(async (targets: string[], flags: QuickFlags) => {
      const plan = planFromFlags(flags.name, targets, flags, false);
      const run = { ...(flags.metrics !== undefined ? { metrics: flags.metrics } : {}), ...(flags.rounds !== undefined ? { rounds: flags.rounds } : {}) };
      if (!flags.save) return executeSchedule({ kind: 'given', plan }, run);
      const s = store();
      await s.save(plan, { replace: true });
      process.stdout.write(`Kept as ${s.fileOf(plan.name)}\n`);
      return executeSchedule({ kind: 'saved', store: s, only: [plan.name] }, run);
    }),
  );

  const add = cmd
    .command('add')
    .summary("keep a named plan: the same test every INTERVAL or at a cron line's times")
    .argument('<name>', `the schedule's name (${NAME_RULE})`)
    .argument('<host[:port]...>', 'the paired responder(s)')
    .addOption(new Option('--paused', 'keep it paused (resume NAME starts it)'))
    .addOption(new Option('--replace', 'replace a plan of this name'));
  addWhenOptions(add);
  addRunOptions(add);
  add.action(
    said(async (name: string, targets: string[], flags: PlanFlags & { paused?: boolean; replace?: boolean }) => {
      const s = store();
      const plan = await s.save(planFromFlags(name, targets, flags, flags.paused === true), { replace: flags.replace === true });
      process.stdout.write(
        `Schedule "${plan.name}" kept in ${s.fileOf(plan.name)}${plan.paused ? ' (paused)' : ''}. The app runs it, or: longhaul schedule run ${plan.name}\n`,
      );
    }),
  );

  cmd
    .command('list')
    .summary('the kept plans: when, peers, test, paused or not, next round, a broken file with its line')
    .action(
      said(async () => {
        process.stdout.write(await listPlans(store()));
      }),
    );
  cmd
    .command('show')
    .summary("a kept plan's file, its path, and what is wrong with it if anything")
    .argument('<name>')
    .action(
      said(async (name: string) => {
        process.stdout.write(await showPlan(store(), name));
      }),
    );
  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    cmd
      .command(verb)
      .summary(paused ? 'pause a kept plan (the test in flight ends first)' : 'resume a paused plan')
      .argument('<name>')
      .action(
        said(async (name: string) => {
          await store().setPaused(name, paused);
          process.stdout.write(`Schedule "${name}" ${paused ? 'paused' : 'resumed'}\n`);
        }),
      );
  }
  cmd
    .command('delete')
    .summary('delete a kept plan and its state (its results stay in History)')
    .argument('<name>')
    .action(
      said(async (name: string) => {
        await store().remove(name);
        process.stdout.write(`Schedule "${name}" deleted (its results stay in History)\n`);
      }),
    );
  cmd
    .command('run')
    .summary('run the kept plans (or the ones named), following edits of their files, until Ctrl-C')
    .argument('[name...]', 'only these plans (default: every plan not paused)')
    .addOption(new Option('--metrics <[addr:]port>', 'serve /metrics (OpenMetrics) here; ADDR defaults to 127.0.0.1'))
    .addOption(new Option('--rounds <n>', 'stop each plan after N rounds').argParser(intIn(1, 1_000_000, 'rounds')))
    .action(
      said(async (names: string[], flags: { metrics?: string; rounds?: number }) => {
        const s = store();
        for (const n of names) await s.read(n); // a name with no plan is said now, not waited for
        await executeSchedule(
          { kind: 'saved', store: s, only: names.length ? names : null },
          { ...(flags.metrics !== undefined ? { metrics: flags.metrics } : {}), ...(flags.rounds !== undefined ? { rounds: flags.rounds } : {}) },
        );
      }),
    );
}

/** An argument as the subcommand list shows it: NAME, [NAME...], HOST[:PORT]... */
function argTerm(name: string, required: boolean, variadic: boolean): string {
  const t = `${name.toUpperCase()}${variadic ? '...' : ''}`;
  return required ? t : `[${t}]`;
}
