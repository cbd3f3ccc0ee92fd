/**
 * Run schedules from the terminal: a plan given on the command line (`longhaul schedule --every …`),
 * or saved plans followed as their files change (`longhaul schedule run [NAME…]`). Every result is
 * saved to History tagged with its schedule; `--metrics` serves them to Prometheus. The first Ctrl-C
 * ends after the test in flight, a second cuts that test short (saved as partial).
 */
import { HistoryStore } from '../app/history-store.js';
import { applyHistoryRetention } from '../app/history-retention.js';
import { resultsDir } from '../app/data-dir.js';
import type { SchedulePlan } from '../contract/schedule.js';
import { serveMetrics } from '../schedule/metrics-server.js';
import { PlanRunner, type PlanRunnerEvent } from '../schedule/plan-runner.js';
import type { PlanStore } from '../schedule/plan-store.js';
import { takeRunnerLock } from '../schedule/runner-lock.js';
import { ScheduleMetrics } from '../schedule/schedule-metrics.js';
import { PeerTarget } from '../sweep/run-target.js';
import { ArgumentError, describeError } from '../util/errors.js';
import { printable } from '../util/printable.js';
import { loadCliTrust } from './cli-trust.js';
import { EXIT_OK, EXIT_RUN_FAILED } from './exit-codes.js';
import { runnerLine } from './schedule-log.js';
import { onStopSignal } from './stop-signals.js';

/** What to run: one plan as given, or the store's plans (`only`: these names; null: every one not paused). */
type ScheduleSource = { kind: 'given'; plan: SchedulePlan } | { kind: 'saved'; store: PlanStore; only: string[] | null };

interface ScheduleRunOptions {
  metrics?: string;
  rounds?: number;
}

/** `[ADDR:]PORT` for --metrics: 127.0.0.1 unless an address is given. */
function metricsAddress(text: string): { host: string; port: number } {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^:]+):)?(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 0 && port <= 65535))
    throw new ArgumentError(`--metrics: "${printable(text)}" is not [ADDR:]PORT, e.g. 9464 or 0.0.0.0:9464`, '--metrics');
  return { host: m[1] ? m[1].replace(/^\[|\]$/g, '') : '127.0.0.1', port };
}

export async function executeSchedule(source: ScheduleSource, o: ScheduleRunOptions): Promise<void> {
  const address = o.metrics !== undefined ? metricsAddress(o.metrics) : null;
  const trust = await loadCliTrust();
  const history = new HistoryStore(resultsDir());
  const lock = await takeRunnerLock(history.dir, 'longhaul schedule');
  const metrics = new ScheduleMetrics();
  let server: Awaited<ReturnType<typeof serveMetrics>> | null = null;
  let ok = 0;
  let tests = 0;
  let retentionProblem = false;
  const print = (line: string | null): void => {
    if (line !== null) process.stdout.write(`${line}\n`);
  };
  const runner = new PlanRunner({
    resultsDir: history.dir,
    targetOf: (p) => new PeerTarget(p.host, p.port, trust),
    save: (r) => history.trySave(r),
    metrics,
    holdProcess: true,
    ...(o.rounds !== undefined ? { maxRounds: o.rounds } : {}),
    onEvent: (e: PlanRunnerEvent) => {
      if (e.kind === 'schedule' && e.event.kind === 'run') {
        tests++;
        if (e.event.record.outcome === 'ok') ok++;
        // Scheduled runs pile up: History's retention rule (default: scheduled runs older than 90 days) after each test.
        void applyHistoryRetention(history).then(
          (o) => o.summary.removedRuns > 0 && print(`History's retention rule removed ${o.summary.removedRuns} old run(s)`),
          (err: unknown) => {
            if (retentionProblem) return;
            retentionProblem = true;
            print(`History's retention rule could not be applied (${printable(describeError(err).message)}): nothing was removed`);
          },
        );
      }
      print(runnerLine(e, source.kind === 'saved'));
    },
  });
  const abort = new AbortController();
  let unhook = onStopSignal(() => {
    print('Stopping after the test in flight (Ctrl-C again to cut it short, saved as partial)…');
    void runner.stop(false);
    unhook = onStopSignal(() => abort.abort());
  });
  abort.signal.addEventListener('abort', () => void runner.stop(true), { once: true });
  try {
    server = address ? await serveMetrics(metrics, address.host, address.port) : null;
    const where = server
      ? `; metrics at http://${server.address.address.includes(':') ? `[${server.address.address}]` : server.address.address}:${server.address.port}/metrics`
      : '';
    print(`Results to ${history.dir}${where}`);
    if (source.kind === 'given') await runner.runOnce(source.plan);
    else {
      await runner.follow(source.store, source.only);
      if (!runner.active && o.rounds === undefined)
        print(`No schedule to run yet (${source.store.dir}): waiting for one to be added or resumed (Ctrl-C to quit)`);
    }
    // --rounds: done when every schedule has run its rounds; otherwise until stopped.
    await (o.rounds !== undefined ? runner.settled() : runner.stopped);
    await runner.stop(false);
  } catch (err) {
    await runner.stop(true);
    throw err;
  } finally {
    unhook();
    await server?.close();
    await lock.release();
  }
  print(`Schedules ended: ${ok} of ${tests} tests complete.`);
  process.exitCode = tests > 0 && ok > 0 ? EXIT_OK : EXIT_RUN_FAILED;
}
