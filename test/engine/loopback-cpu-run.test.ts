/**
 * A real `longhaul loopback` run comes out cpu-limited. Both ends on this PC move bytes as fast as its
 * cores copy them: on a 2-core VM the two data threads sat near half a core each while the kernel's
 * packet processing and the scheduler took the rest, which used to read as "application-limited" with
 * `--buffer 1M` advice. The run records the PC's busy share per side and that both ends were on this
 * PC; the verdict is this PC's CPU (or, on a PC with cores to spare, the one thread near a full core).
 * Bounded: a 2 s run, killed after 60 s.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { cli } from '../helpers/cli.js';
import { skipWithoutNative } from '../helpers/native.js';

describe('loopback run: the CPU, not the network', { skip: skipWithoutNative }, () => {
  it('longhaul loopback -t 2: cpu-limited, with the PC busy share and both ends on this PC recorded', { timeout: 90_000 }, async (t) => {
    const jsonFile = path.join(os.tmpdir(), `longhaul-loopback-cpu-${process.pid}.json`);
    try {
      const run = await cli(['loopback', '--seconds', '2', '--json', jsonFile], 60_000).done;
      assert.equal(run.code, 0, run.stderr);
      const r = JSON.parse(await readFile(jsonFile, 'utf8')) as LonghaulResult;
      const d = r.diagnosis?.[0];
      t.diagnostic(`${((r.total.bitsPerSecond ?? 0) / 1e9).toFixed(1)} Gbit/s; ${d?.verdict}: ${d?.sentence}`);
      assert.equal(r.cpu?.samePc, true);
      if (process.platform === 'linux') {
        for (const side of ['controller', 'responder'] as const) {
          const pc = r.cpu?.[side]?.pc;
          assert.ok(pc && pc.source === 'proc-stat' && pc.busyShare > 0 && pc.busyShare <= 1, `${side}: ${JSON.stringify(pc)}`);
          // Each native data thread's run-queue wait, read by the thread itself.
          for (const t of r.cpu?.[side]?.threads ?? []) assert.ok(typeof t.waitSeconds === 'number' && t.waitSeconds >= 0, `${side}: ${JSON.stringify(t)}`);
        }
      }
      assert.equal(d?.verdict, 'cpu-limited', d?.sentence);
      // This PC's cores busy (shared by both ends), or one thread near a core on a PC with cores to spare.
      assert.match(d.sentence, /shared by both ends and the kernel|of one core while moving/);
      assert.ok(
        r.advice?.some((a) => a.topic === 'cpu'),
        `advice ${r.advice?.map((a) => a.topic).join(', ')}`,
      );
      assert.ok(!r.advice?.some((a) => a.topic === 'application'), 'no --buffer advice');
    } finally {
      await rm(jsonFile, { force: true });
    }
  });
});
