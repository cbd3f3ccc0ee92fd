/**
 * Thread CPU on the Windows build (native/src/lh_thread_cpu.h: GetThreadTimes on
 * the loop's own thread), run under Wine: a `longhaul loopback` records each
 * side's process tree and each native sender and reader thread. Wine answers
 * GetThreadTimes from the kernel's per-thread counters, so the figures are real.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { BIN } from '../helpers/processes.js';
import { laneReady, resultsDirWithSpaces, runWindowsNode, toWindowsPath, useWindowsLane } from './wine-node.js';

describe('CPU per side and per data thread under Wine', { timeout: 240_000 }, () => {
  useWindowsLane();

  it('a loopback run records its native threads with GetThreadTimes', async (t) => {
    if (!laneReady(t)) return;
    const dir = resultsDirWithSpaces(t);
    const env = { LONGHAUL_TRUST_DIR: `${dir.win}\\trust`, LONGHAUL_DATA_DIR: `${dir.win}\\data` };
    const args = [toWindowsPath(BIN), 'loopback', '-P', '2', '-n', '200M', '--explain', '--json', `${dir.win}\\r.json`];
    const run = await runWindowsNode(args, { env, timeoutMs: 150_000 });
    assert.equal(run.code, 0, `exit ${run.code}${run.timedOut ? ' (timed out)' : ''}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
    const r = JSON.parse(readFileSync(path.join(dir.linux, 'r.json'), 'utf8')) as LonghaulResult;
    assert.equal(r.partial, false, r.partialReason ?? '');
    assert.match(run.stdout, /CPU Utilization: local\/sender \d+\.\d% \(/);
    const lines: string[] = [];
    for (const side of ['controller', 'responder'] as const) {
      const c = r.cpu?.[side];
      assert.ok(c, `${side}: CPU figures recorded: ${JSON.stringify(r.cpu)}`);
      assert.ok(c.shareOfOneCore > 0, `${side}: ${JSON.stringify(c)}`);
      assert.ok(Math.abs(c.shareOfPc - c.shareOfOneCore / c.cores) < 1e-9);
      const native = r.streams.some((s) => (side === 'controller' ? s.send?.io : s.receive?.io) === 'native');
      if (!native) {
        assert.equal(c.threads, null, `${side}: Node moved the bytes, no thread of its own`);
        continue;
      }
      assert.ok(c.threads && c.threads.length > 0, `${side}: threads recorded: ${JSON.stringify(c)}`);
      for (const th of c.threads) {
        assert.ok(th.cpuSeconds > 0 && th.shareOfOneCore > 0 && th.shareOfOneCore <= 1.05, `${side}: ${JSON.stringify(th)}`);
      }
      lines.push(
        `${side} ${c.shareOfOneCore.toFixed(3)} of one core, threads ${c.threads.map((th) => `${th.kind} ${th.shareOfOneCore.toFixed(3)}`).join(', ')}`,
      );
    }
    t.diagnostic(lines.join('; '));
  });
});
