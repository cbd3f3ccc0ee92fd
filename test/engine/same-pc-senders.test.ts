/**
 * The same-PC senders rule (docs/measurements.md#same-pc-senders) wired through both doors of a real run: a
 * `longhaul loopback -P 2 -l 1M` has as many sending threads as workerCount gives for both ends on one PC,
 * forward (the controller sends) and -R (the responder sends), and `-l 128K` keeps one per core. The counts
 * come from the result's own per-thread CPU (which streams each native thread served). Bounded: 1 s runs,
 * each killed after 60 s.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { workerCount } from '../../electron/engine/data-plane/worker-slot.js';
import { cli } from '../helpers/cli.js';
import { skipWithoutNative } from '../helpers/native.js';

const CASES = [
  { buffer: '1M', bytes: 1024 * 1024, reverse: false },
  { buffer: '1M', bytes: 1024 * 1024, reverse: true },
  { buffer: '128K', bytes: 128 * 1024, reverse: false },
  { buffer: '128K', bytes: 128 * 1024, reverse: true },
];

describe('sending threads when both ends share this PC', { skip: skipWithoutNative }, () => {
  for (const c of CASES) {
    const label = `loopback -P 2 -l ${c.buffer}${c.reverse ? ' -R' : ''}`;
    it(`${label}: the sending end has workerCount's sending threads, the receiving end one thread per stream`, { timeout: 90_000 }, async () => {
      const jsonFile = path.join(os.tmpdir(), `longhaul-same-pc-senders-${process.pid}-${c.buffer}${c.reverse ? '-R' : ''}.json`);
      try {
        const args = ['loopback', '-P', '2', '-l', c.buffer, '--seconds', '1', '--json', jsonFile, ...(c.reverse ? ['-R'] : [])];
        const run = await cli(args, 60_000).done;
        assert.equal(run.code, 0, run.stderr);
        const r = JSON.parse(await readFile(jsonFile, 'utf8')) as LonghaulResult;
        assert.equal(r.cpu?.samePc, true);
        const sending = c.reverse ? r.cpu?.responder : r.cpu?.controller;
        const receiving = c.reverse ? r.cpu?.controller : r.cpu?.responder;
        assert.ok(sending?.threads && receiving?.threads, `native data threads on both ends: ${JSON.stringify(r.unavailable)}`);
        const expected = workerCount('send', 2, { samePc: true, writeBytes: c.bytes });
        const senders = sending.threads.filter((t) => t.kind === 'sender');
        assert.equal(senders.length, expected, `${label}: ${JSON.stringify(sending.threads)}`);
        assert.deepEqual(senders.flatMap((t) => t.streams).sort(), [0, 1], 'every stream sent by one of them');
        assert.equal(receiving.threads.filter((t) => t.kind === 'receiver').length, 2, `${label}: ${JSON.stringify(receiving.threads)}`);
      } finally {
        await rm(jsonFile, { force: true });
      }
    });
  }
});
