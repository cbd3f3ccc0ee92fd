/**
 * The schedules of a data folder, followed as their files change (electron/schedule/plan-runner.ts):
 * an edit restarts the plan as edited after its test, a pause stops it, a file broken by hand leaves
 * the plan running as it was (and after a restart, the last accepted plan from its state runs), and
 * no two tests of two schedules overlap. The peers are fakes (no sockets): what is checked is the
 * runner's bookkeeping; test/cli/schedule-cli.test.ts runs real peers.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { SchedulePeer } from '../../electron/contract/schedule.js';
import { PlanRunner, type PlanRunnerEvent } from '../../electron/schedule/plan-runner.js';
import { PlanStore } from '../../electron/schedule/plan-store.js';
import { ScheduleMetrics } from '../../electron/schedule/schedule-metrics.js';
import type { RunTarget } from '../../electron/sweep/run-target.js';
import { recordRun } from '../helpers/result-fixtures.js';
import { tmpDir } from '../helpers/tmp.js';

/** A test lasts this long on the fake peer, ms: long enough for an overlap to show. */
const TEST_MS = 150;

function harness(dir: string): { runner: PlanRunner; events: PlanRunnerEvent[]; spans: { peer: string; from: number; to: number }[] } {
  const events: PlanRunnerEvent[] = [];
  const spans: { peer: string; from: number; to: number }[] = [];
  let n = 0;
  const targetOf = (p: SchedulePeer): RunTarget => ({
    label: p.host,
    open: async () => undefined,
    close: async () => undefined,
    run: async () => {
      const from = Date.now();
      await new Promise((r) => setTimeout(r, TEST_MS));
      spans.push({ peer: p.host, from, to: Date.now() });
      return { ...recordRun(), id: (++n).toString(16).padStart(16, '0') };
    },
  });
  const runner = new PlanRunner({
    resultsDir: dir,
    targetOf,
    save: async () => ({ savedPath: '/dev/null', saveError: null }),
    metrics: new ScheduleMetrics(),
    onEvent: (e) => events.push(e),
  });
  return { runner, events, spans };
}

/** Poll (bounded) until `ok`, then return what it found. */
async function until<T>(what: string, f: () => T | undefined | false, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const runs = (events: PlanRunnerEvent[], name: string): string[] =>
  events.flatMap((e) => (e.kind === 'schedule' && e.name === name && e.event.kind === 'run' ? [`${e.event.record.peer.host}`] : []));

describe('plan runner', () => {
  it('follows the files: an edit restarts the plan as edited, a broken file keeps it running, a pause stops it', async (t) => {
    const dir = tmpDir(t);
    const store = new PlanStore(dir);
    await store.save({ schema: 'longhaul.schedule/1', name: 'a', every: '1h', peers: ['p1'], test: { seconds: 1 } }, { replace: false });
    await store.save({ schema: 'longhaul.schedule/1', name: 'b', every: '1h', peers: ['q1'], test: { seconds: 1 } }, { replace: false });
    const { runner, events, spans } = harness(dir);
    t.after(() => runner.stop(true));
    await runner.follow(store, null);
    await until('both schedules ran their first round', () => runs(events, 'a').length === 1 && runs(events, 'b').length === 1);
    const sorted = [...spans].sort((x, y) => x.from - y.from);
    for (let i = 1; i < sorted.length; i++) assert.ok((sorted[i]?.from ?? 0) >= (sorted[i - 1]?.to ?? 0), 'two schedules never test at once');
    assert.ok(
      events.some((e) => e.kind === 'schedule' && e.event.kind === 'queued'),
      'the second waited its turn, and said so',
    );

    const file = store.fileOf('a');
    const good = await readFile(file, 'utf8');
    await writeFile(file, good.replace('"p1:5211"', '"p1:5211",'));
    await runner.rescan(store, null);
    const problem = events.find((e) => e.kind === 'problem');
    assert.ok(problem && problem.kind === 'problem' && problem.kept && problem.problem.line > 1, 'said with its line; the plan goes on');
    assert.ok(runner.views().has('a'));
    await runner.rescan(store, null);
    assert.equal(events.filter((e) => e.kind === 'problem').length, 1, 'said once, not at every look');

    await writeFile(file, good.replace('"p1:5211"', '"p1:5211", "p2:5211"'));
    await runner.rescan(store, null);
    await until('stopped as edited', () => events.some((e) => e.kind === 'stopped' && e.name === 'a' && e.why === 'edited'));
    await until('started again as edited, and ran its new peer', () => runs(events, 'a').includes('p2'));
    assert.deepEqual(runner.views().get('a')?.plan.peers, ['p1:5211', 'p2:5211']);

    await store.setPaused('b', true);
    await runner.rescan(store, null);
    await until('b paused', () => events.some((e) => e.kind === 'stopped' && e.name === 'b' && e.why === 'paused'));
    assert.equal(runner.views().has('b'), false);
    await runner.stop(false);
  });

  it('after a restart, a plan whose file was broken meanwhile runs as last accepted (kept in its state)', async (t) => {
    const dir = tmpDir(t);
    const store = new PlanStore(dir);
    await store.save({ schema: 'longhaul.schedule/1', name: 'a', every: '1h', peers: ['p1'], test: { seconds: 1 } }, { replace: false });
    const first = harness(dir);
    await first.runner.follow(store, null);
    await until('a ran', () => runs(first.events, 'a').length === 1);
    await first.runner.stop(false);

    await writeFile(store.fileOf('a'), '{ "schema": "longhaul.schedule/1", "name": "a", "every": "1h" ');
    const second = harness(dir);
    t.after(() => second.runner.stop(true));
    await second.runner.follow(store, null);
    const started = await until('started', () => second.events.find((e) => e.kind === 'started'));
    assert.ok(started.kind === 'started' && started.kept, 'the last accepted plan');
    assert.ok(second.events.some((e) => e.kind === 'problem' && e.kept));
    assert.equal(started.kind === 'started' && started.resumedAfter !== null, true, 'and its slot is known: the hour already run is not run again');
    await second.runner.stop(false);
    assert.equal(runs(second.events, 'a').length, 0);
  });
});
