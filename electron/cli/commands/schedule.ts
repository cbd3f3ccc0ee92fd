/**
 * `longhaul schedule --every 20s [run flags] PEER...` (issue 39, docs/schedules.md): the same test
 * against each paired peer, one round per interval, one test at a time, every result saved to
 * History tagged with the schedule; `--metrics [ADDR:]PORT` serves them to Prometheus. Ctrl-C ends
 * it after the test in flight (a second Ctrl-C quits at once, the test in flight saved as partial).
 */
import os from 'node:os';
import { Option, type Command } from 'commander';
import { DEFAULT_PORT } from '../../contract/api.js';
import { answerOf } from '../../contract/answer-text.js';
import { HistoryStore } from '../../app/history-store.js';
import { resultsDir } from '../../app/data-dir.js';
import { PeerTarget } from '../../sweep/run-target.js';
import { serveMetrics } from '../../schedule/metrics-server.js';
import { peerLabel, ScheduleMetrics } from '../../schedule/schedule-metrics.js';
import { Scheduler, type ScheduleEvent } from '../../schedule/scheduler.js';
import { ScheduleState } from '../../schedule/schedule-state.js';
import { ArgumentError, describeError } from '../../util/errors.js';
import { printable } from '../../util/printable.js';
import { loadCliTrust } from '../cli-trust.js';
import { EXIT_OK, EXIT_RUN_FAILED } from '../exit-codes.js';
import { addExamples, addHelpBlock } from '../help-layout.js';
import { addRunOptions, intIn, parseTarget, runParamsFromFlags, secondsIn, type RunFlags } from '../run-options.js';
import { onStopSignal } from '../stop-signals.js';

interface ScheduleFlags extends RunFlags {
  every: number;
  name: string;
  metrics?: string;
  rounds?: number;
}

/** An interval shorter than this would be mostly set-up; longer than a day is a cron job's. */
const MIN_EVERY_SECONDS = 5;
const MAX_EVERY_SECONDS = 7 * 24 * 3600;
/** Names become metric labels and file names: short, plain. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `[ADDR:]PORT` for --metrics: 127.0.0.1 unless an address is given. */
function metricsAddress(text: string): { host: string; port: number } {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^:]+):)?(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 0 && port <= 65535))
    throw new ArgumentError(`--metrics: "${printable(text)}" is not [ADDR:]PORT, e.g. 9464 or 0.0.0.0:9464`, '--metrics');
  return { host: m[1] ? m[1].replace(/^\[|\]$/g, '') : '127.0.0.1', port };
}

function refuse(flags: ScheduleFlags): void {
  const why = (flag: string, reason: string): never => {
    throw new ArgumentError(`schedule with ${flag}: ${reason}`, flag);
  };
  if (flags.udpRamp !== undefined) why('--udp-ramp', 'a ramp is many runs; a schedule repeats one test (schedule -u -b RATE)');
  if (flags.bytes !== undefined) why('-n', 'every scheduled test lasts a time (-t), so the rounds compare');
  if (flags.every < (flags.seconds ?? 10) + 2)
    why('--every', `each round runs -t ${flags.seconds ?? 10} s per peer plus set-up: give an interval longer than that`);
  if (!NAME.test(flags.name)) why('--name', 'letters, digits, ".", "_" and "-", at most 64, starting with a letter or digit');
}

export function register(program: Command): void {
  const cmd = program
    .command('schedule')
    .summary('the same test against paired peers every INTERVAL, with metrics for Prometheus')
    .description(
      'run the same test against each paired peer every INTERVAL, one test at a time, each result saved to History ' +
        'tagged with the schedule; --metrics serves the last results to Prometheus (docs/schedules.md)',
    )
    .argument('<host[:port]...>', `the paired responder(s), e.g. 192.168.1.20 lab-pc:${DEFAULT_PORT}`)
    .addOption(
      new Option('--every <interval>', `a round every INTERVAL, e.g. 20s, 15m, 1h (${MIN_EVERY_SECONDS} s to 7 days)`)
        .argParser(secondsIn(MIN_EVERY_SECONDS, MAX_EVERY_SECONDS, 'every'))
        .makeOptionMandatory(),
    )
    .addOption(new Option('--name <name>', "the schedule's name: a label on its metrics and in History").default('schedule'))
    .addOption(new Option('--metrics <[addr:]port>', 'serve /metrics (OpenMetrics) here; ADDR defaults to 127.0.0.1, another address must be given'))
    .addOption(new Option('--rounds <n>', 'stop after N rounds (default: until Ctrl-C)').argParser(intIn(1, 1_000_000, 'rounds')))
    .addOption(new Option('-p, --port <n>', `the peers' port when HOST has no :PORT (default ${DEFAULT_PORT})`).argParser(intIn(1, 65535, 'port')));
  addRunOptions(cmd);
  addHelpBlock(cmd, 'Notes:', [
    'Slots are whole intervals since 1970 (UTC) plus an offset fixed for this PC and name',
    '(up to a tenth of the interval, at most 30 s), so laptops on one schedule do not start at once.',
    'A round that overruns, or a PC that slept, runs the current slot once, never the missed ones.',
    'A peer busy with another controller is tried again with back-off (1, 2, 4 … s).',
  ]);
  addExamples(cmd, ['longhaul schedule --every 15m lab-pc branch-pc -t 10', 'longhaul schedule --every 1h -u -b 2M --name voice satellite-pc --metrics 9464']);
  cmd.action(async (targets: string[], flags: ScheduleFlags) => {
    refuse(flags);
    const peers = targets.map((t) => parseTarget(t, flags.port, DEFAULT_PORT));
    const params = runParamsFromFlags(flags);
    const trust = await loadCliTrust();
    const history = new HistoryStore(resultsDir());
    const metrics = new ScheduleMetrics();
    const state = new ScheduleState(history.dir, flags.name, flags.every, peers);
    const kept = await state.read();
    if (kept.note) process.stdout.write(`${printable(kept.note)}\n`);
    let stateProblem: string | null = null;
    const server = flags.metrics !== undefined ? await serveMetrics(metrics, metricsAddress(flags.metrics).host, metricsAddress(flags.metrics).port) : null;
    let ok = 0;
    let runs = 0;
    const scheduler = new Scheduler({
      name: flags.name,
      everyMs: flags.every * 1000,
      peers,
      settings: { params, link: null, path: 'direct' },
      capacity: flags.capacity === true,
      targetOf: (p) => new PeerTarget(p.host, p.port, trust),
      save: (r) => history.trySave(r),
      metrics,
      hostname: os.hostname(),
      ...(flags.rounds !== undefined ? { maxRounds: flags.rounds } : {}),
      lastSlots: kept.lastSlots,
      onTested: async (slots) => {
        // Not kept: a restart may run a slot again; said once, the schedule goes on.
        await state.write(slots).catch((err: unknown) => {
          if (stateProblem) return;
          stateProblem = describeError(err).message;
          process.stdout.write(`The schedule's state could not be kept in ${state.file} (${printable(stateProblem)}): a restart may run a slot again\n`);
        });
      },
      onEvent: (e) => {
        if (e.kind === 'run') {
          runs++;
          if (e.record.outcome === 'ok') ok++;
        }
        process.stdout.write(`${eventLine(e)}\n`);
      },
    });
    process.stdout.write(
      `Schedule "${flags.name}": ${peers.map(peerLabel).join(', ')} every ${intervalText(flags.every)}, one test at a time; ` +
        `${kept.lastSlots.size ? `resuming after slot ${Math.max(...kept.lastSlots.values())} (${state.file}); ` : ''}results to ${history.dir}${server ? `; metrics at http://${server.address.address.includes(':') ? `[${server.address.address}]` : server.address.address}:${server.address.port}/metrics` : ''}\n`,
    );
    const abort = new AbortController();
    let unhook = onStopSignal(() => {
      process.stdout.write('Stopping after this test (Ctrl-C again to cut it short, saved as partial)…\n');
      scheduler.stopAfterTest();
      unhook = onStopSignal(() => abort.abort());
    });
    try {
      await scheduler.run(abort.signal);
    } finally {
      unhook();
      await server?.close();
    }
    process.stdout.write(`Schedule "${flags.name}" ended: ${ok} of ${runs} tests complete.\n`);
    process.exitCode = runs > 0 && ok > 0 ? EXIT_OK : EXIT_RUN_FAILED;
  });
}

/** An interval as a person says it: 20 s, 15 min, 1.5 h. */
function intervalText(s: number): string {
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${+(s / 60).toFixed(1)} min`;
  return `${+(s / 3600).toFixed(1)} h`;
}

/** One line of the log: a test's one answer (or why it failed), a busy peer, the next round. */
function eventLine(e: ScheduleEvent): string {
  switch (e.kind) {
    case 'waiting':
      return `Next round (slot ${e.slot}) at ${new Date(e.atMs).toISOString()}`;
    case 'busy':
      return `${peerLabel(e.peer)} is busy with another controller: trying again in ${Math.round(e.retryInMs / 1000)} s (try ${e.tries + 1})`;
    case 'run': {
      const r = e.record;
      const answer = e.result && e.result.total.bytes > 0 ? printable(answerOf(e.result, 'terminal').results.join('; ')) : `failed: ${r.code ?? 'unknown'}`;
      const saved = r.savedPath ? '' : r.saveError ? ` (NOT SAVED: ${printable(r.saveError)})` : '';
      return `${r.endedAt} slot ${r.slot} ${peerLabel(r.peer)}: ${answer}${r.outcome === 'partial' ? ' (partial)' : ''}${saved}`;
    }
  }
}
