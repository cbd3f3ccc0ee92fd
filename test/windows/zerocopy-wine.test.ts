/**
 * `longhaul loopback -Z --bidir` in the Windows build of Node under Wine: Windows has no zero-copy
 * sender built yet (TransmitFile), so both ends' senders copy, the run is whole, and the result says
 * why for each side instead of leaving -Z unanswered.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { ZERO_COPY_FIELD } from '../../electron/contract/send-path.js';
import { BIN } from '../helpers/processes.js';
import { laneReady, resultsDirWithSpaces, runWindowsNode, toWindowsPath, useWindowsLane } from './wine-node.js';

describe('longhaul loopback -Z under Wine', { timeout: 180_000 }, () => {
  useWindowsLane();

  it('-Z --bidir -n 2M: both sides copy, each says -Z on Windows is not built yet', async (t) => {
    if (!laneReady(t)) return;
    const dir = resultsDirWithSpaces(t);
    const env = { LONGHAUL_TRUST_DIR: `${dir.win}\\trust`, LONGHAUL_DATA_DIR: `${dir.win}\\data` };
    const args = [toWindowsPath(BIN), 'loopback', '-Z', '--bidir', '-n', '2000000', '--json', `${dir.win}\\r.json`];
    const run = await runWindowsNode(args, { env, timeoutMs: 120_000 });
    assert.equal(run.code, 0, `exit ${run.code}${run.timedOut ? ' (timed out)' : ''}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
    const r = JSON.parse(readFileSync(path.join(dir.linux, 'r.json'), 'utf8')) as LonghaulResult;
    assert.equal(r.partial, false, r.partialReason ?? '');
    assert.equal(r.params.zeroCopy, true);
    for (const s of r.streams) {
      assert.equal(s.send?.sendPath, 'copy', `stream ${s.id} (${s.sender})`);
      assert.equal(s.receive?.bytes, s.send?.bytes);
    }
    const why = (r.unavailable ?? []).filter((u) => u.field === ZERO_COPY_FIELD);
    assert.deepEqual(why.map((u) => u.side).sort(), ['controller', 'responder']);
    for (const u of why) assert.equal(u.reason, '-Z on Windows: TransmitFile is not built yet; copied with send()');
    assert.match(
      run.stdout,
      /^Zero-copy sender \(-Z\): controller copied on 1 of 1 \(-Z on Windows: TransmitFile is not built yet; copied with send\(\)\); responder copied on 1 of 1 /m,
    );
  });
});
