/**
 * `longhaul loopback -b 20M` in the Windows build of Node under Wine: Windows has no per-socket
 * pacing cap, so the native byte loop (on the addon-owned Winsock sockets) paces itself, the
 * result says "Longhaul's own pacing" with the reason, and the rate holds (±15 %: the machine is shared).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { BIN } from '../helpers/processes.js';
import { laneReady, resultsDirWithSpaces, runWindowsNode, toWindowsPath, useWindowsLane } from './wine-node.js';

const RATE = 20e6;

describe('longhaul loopback -b under Wine', { timeout: 180_000 }, () => {
  useWindowsLane();

  it("-b 20M -t 3: Longhaul's own pacing on Windows, 20 Mbit/s", async (t) => {
    if (!laneReady(t)) return;
    const dir = resultsDirWithSpaces(t);
    const env = { LONGHAUL_TRUST_DIR: `${dir.win}\\trust`, LONGHAUL_DATA_DIR: `${dir.win}\\data` };
    const args = [toWindowsPath(BIN), 'loopback', '-b', '20M', '-t', '3', '--json', `${dir.win}\\r.json`];
    const run = await runWindowsNode(args, { env, timeoutMs: 120_000 });
    assert.equal(run.code, 0, `exit ${run.code}${run.timedOut ? ' (timed out)' : ''}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
    const r = JSON.parse(readFileSync(path.join(dir.linux, 'r.json'), 'utf8')) as LonghaulResult;
    assert.equal(r.partial, false, r.partialReason ?? '');
    const side = r.pacing?.sides.find((s) => s.side === 'controller');
    assert.equal(side?.mechanism, "Longhaul's own pacing", r.pacing?.note);
    assert.match(side?.reason ?? '', /Windows has no per-socket pacing cap/);
    const ratio = (r.total.bitsPerSecond ?? 0) / RATE;
    t.diagnostic(`${((r.total.bitsPerSecond ?? 0) / 1e6).toFixed(2)} Mbit/s under Wine; ${r.pacing?.note}; send io ${r.streams[0]?.send?.io}`);
    assert.ok(Math.abs(ratio - 1) <= 0.15, `ratio ${ratio.toFixed(3)}`);
    assert.equal(r.diagnosis?.[0]?.verdict, 'application-limited', r.diagnosis?.[0]?.sentence);
  });
});
