/**
 * Junk that is not TLS, from one address, against `longhaul listen` run with
 * 128 descriptors (`ulimit -n` in a child shell). The responder answers each
 * with LH_ERR_TLS_REQUIRED; it used to take the connection out of the pending
 * pool, end() it and destroy it only 2 s later, so 100 connections every
 * 500 ms kept the descriptors at the limit and 3 of 3 paired runs failed
 * (`LH_ERR_TLS … ECONNRESET`). Now each is destroyed once its answer is
 * flushed and counts against the pool until then. The same flood printed two
 * lines per connection; now a count per address every 10 s.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startCli, waitFor } from '../helpers/cli-process.js';
import { junkBursts } from '../helpers/stranger-flood.js';
import { tmpDir } from '../helpers/tmp.js';

const MAX_OPEN_FILES = 128;
const BURST = 100;
const EVERY_MS = 500;
const RUNS = 3;

describe('a junk flood at a low descriptor limit', { timeout: 150_000 }, () => {
  it(`${BURST} non-TLS connections every ${EVERY_MS} ms from 127.0.0.2 under ulimit -n ${MAX_OPEN_FILES}: ${RUNS} paired runs succeed, the log stays short`, async (t) => {
    // One trust folder for both ends: an installation trusts its own certificate, and 127.0.0.1 is nobody's peer address.
    const dir = path.join(tmpDir(t), 'trust');
    mkdirSync(dir);
    const env = { LONGHAUL_TRUST_DIR: dir };
    const listen = startCli(t, ['listen', '--port', '0', '--bind', '127.0.0.1', '--no-pairing'], tmpDir(t), env, MAX_OPEN_FILES);
    const port = await waitFor('the responder to listen', 15_000, () => /listening on 127\.0\.0\.1:(\d+)/.exec(listen.stdout())?.[1]);
    const before = listen.stdout().split('\n').length;
    const started = Date.now();
    const flood = junkBursts(Number(port), '127.0.0.2', BURST, EVERY_MS, Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    const failures: string[] = [];
    try {
      await new Promise((r) => setTimeout(r, 1500)); // descriptors fill within a second when held
      for (let i = 0; i < RUNS; i++) {
        const run = startCli(t, ['run', `127.0.0.1:${port}`, '--bytes', '2M'], tmpDir(t), env);
        const code = await run.exited(30_000);
        if (code !== 0) failures.push(`run ${i + 1} exited ${code}: ${run.stderr().trim().split('\n').slice(-2).join(' | ')}`);
      }
    } finally {
      flood.stop();
    }
    const seconds = (Date.now() - started) / 1000;
    const lines = listen.stdout().split('\n').length - before;
    process.stdout.write(
      `# junk flood: ${flood.opened()} opened in ${seconds.toFixed(1)} s, ${flood.dropped()} answered and closed; ${RUNS - failures.length}/${RUNS} runs; ${lines} log lines\n`,
    );
    // A line per run (connected, ended) and per address every 10 s: far under one per connection.
    const allowed = RUNS * 4 + 4 * Math.ceil(seconds / 10);
    if (lines > allowed)
      failures.push(
        `${lines} lines on stdout in ${seconds.toFixed(1)} s of flood (at most ${allowed}), ending:\n${listen.stdout().split('\n').slice(-6).join('\n')}`,
      );
    assert.deepEqual(failures, [], 'every paired run got through the flood, and the log stayed short');
    assert.ok(flood.dropped() > flood.opened() / 2, `the responder closed the junk meanwhile (${flood.dropped()} of ${flood.opened()})`);
  });
});
