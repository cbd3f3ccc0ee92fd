/**
 * Stopping a run from outside: Ctrl-C (SIGINT), a closed terminal or console
 * window (SIGHUP), SIGTERM — each stops `longhaul loopback` cleanly, keeps the
 * partial result (--json with partial: true, the CSV's final summary) and
 * exits 1. Ctrl-Break (SIGBREAK) cannot be sent on Linux: the listener table
 * is checked with an EventEmitter instead.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { followParent, onStop, onStopSignal, STOP_SIGNALS } from '../../electron/cli/stop-signals.js';
import { startCli, waitFor } from '../helpers/cli-process.js';
import { tmpDir } from '../helpers/tmp.js';

const CONSOLE = ['SIGINT', 'SIGBREAK', 'SIGHUP'] as const;

/** Processes still in a process group (none once everything a command forked has gone). */
function groupMembers(pgid: number): string[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '-g', String(pgid)], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.trim());
  } catch {
    return []; // ps exits 1 when nothing matches
  }
}

describe('stop signals', { timeout: 120_000 }, () => {
  it('a command stops on the first of SIGINT, SIGBREAK, SIGHUP, SIGTERM; a second one gets the default (quit at once)', () => {
    assert.deepEqual([...STOP_SIGNALS], ['SIGINT', 'SIGBREAK', 'SIGHUP', 'SIGTERM']);
    for (const signal of STOP_SIGNALS) {
      const proc = new EventEmitter();
      const got: string[] = [];
      const dispose = onStopSignal((s) => got.push(s), proc);
      for (const s of STOP_SIGNALS) assert.equal(proc.listenerCount(s), 1, `${s} is handled`);
      proc.emit(signal);
      assert.deepEqual(got, [signal]);
      for (const s of STOP_SIGNALS) assert.equal(proc.listenerCount(s), 0, `after ${signal} nothing handles ${s}`);
      dispose();
    }
  });

  it("a helper forked with IPC swallows the console's signals and follows its parent (SIGTERM, or the channel closing)", () => {
    for (const end of ['SIGTERM', 'disconnect'] as const) {
      const proc = new EventEmitter();
      let stops: string[] = [];
      followParent((why) => stops.push(why), proc);
      for (const s of CONSOLE) {
        assert.equal(proc.listenerCount(s), 1, `${s} has a listener, so it does not kill the helper`);
        proc.emit(s);
      }
      assert.deepEqual(stops, [], 'Ctrl-C in the console is for the parent');
      proc.emit(end);
      assert.deepEqual(stops, [end]);
      for (const s of [...CONSOLE, 'SIGTERM', 'disconnect']) assert.equal(proc.listenerCount(s), 0);
      stops = [];
    }
    const forked = Object.assign(new EventEmitter(), { connected: true });
    onStop(() => {}, forked);
    assert.equal(forked.listenerCount('disconnect'), 1, 'onStop follows the parent when there is an IPC channel');
    const alone = Object.assign(new EventEmitter(), { connected: false });
    onStop(() => {}, alone);
    assert.equal(alone.listenerCount('disconnect'), 0);
    assert.equal(alone.listenerCount('SIGBREAK'), 1);
  });

  for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM'] as const) {
    it(`${signal} to loopback -t 30 --json: stops within seconds, partial result written, exit 1`, async (t) => {
      const dir = tmpDir(t);
      const run = startCli(t, ['loopback', '-t', '30', '-i', '0.5', '--workers', '1', '--json', 'partial run.json', '--csv', 'partial run.csv'], dir);
      const csvFile = path.join(dir, 'partial run.csv');
      await waitFor('two intervals in the CSV', 20_000, () => existsSync(csvFile) && (readFileSync(csvFile, 'utf8').match(/\r\ninterval,/g)?.length ?? 0) >= 2);
      const sentAt = Date.now();
      run.child.kill(signal);
      assert.equal(await run.exited(10_000), 1, `exit code; stderr: ${run.stderr()}`);
      assert.ok(Date.now() - sentAt < 5000, `stopped ${Date.now() - sentAt} ms after ${signal} (a closed Windows console allows ~5 s)`);
      const result = JSON.parse(readFileSync(path.join(dir, 'partial run.json'), 'utf8')) as LonghaulResult;
      assert.equal(result.partial, true);
      assert.equal(result.partialReason, 'stopped by the user');
      assert.deepEqual(result.errors, []);
      assert.ok(result.intervals.length >= 2 && result.total.bytes > 0, 'what was measured is kept');
      const rows = parse(readFileSync(csvFile, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
      const total = rows.find((r) => r.row_type === 'total');
      assert.equal(total?.partial, 'true');
      assert.equal(total?.partial_reason, 'stopped by the user', 'the final summary, not the provisional one');
      assert.equal(Number(total?.received_bytes), result.total.bytes);
      if (signal === 'SIGINT') assert.match(run.stderr(), /stopping \(partial results will be kept\)… Ctrl-C again quits at once/);
      await waitFor('the local responder to exit too', 5000, () => groupMembers(run.child.pid!).length === 0);
    });
  }

  it('Ctrl-C in a terminal (SIGINT to the whole process group): the partial result is still written, exit 1, nothing left running', async (t) => {
    const dir = tmpDir(t);
    const run = startCli(t, ['loopback', '-t', '30', '-i', '0.5', '--workers', '1', '--json', 'r.json', '--csv', 'r.csv'], dir);
    const csvFile = path.join(dir, 'r.csv');
    await waitFor('two intervals in the CSV', 20_000, () => existsSync(csvFile) && (readFileSync(csvFile, 'utf8').match(/\r\ninterval,/g)?.length ?? 0) >= 2);
    process.kill(-run.child.pid!, 'SIGINT');
    assert.equal(await run.exited(10_000), 1, `exit code; stderr: ${run.stderr()}`);
    const result = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8')) as LonghaulResult;
    assert.equal(result.partial, true);
    assert.ok(result.total.bytes > 0, 'what was measured is kept');
    // The data workers got the SIGINT too: they leave the stop to the engine, so none died with its counters.
    assert.deepEqual(
      (result.errors ?? []).filter((e) => e.code === 'LH_ERR_WORKER'),
      [],
      JSON.stringify(result.errors),
    );
    for (const s of result.streams)
      for (const end of [s.send, s.receive]) assert.equal(end?.error?.code === 'LH_ERR_WORKER', false, `stream ${s.id}: ${JSON.stringify(end?.error)}`);
    await waitFor('every process of the group to exit', 5000, () => groupMembers(run.child.pid!).length === 0);
  });
});
