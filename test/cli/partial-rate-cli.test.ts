/**
 * A partial run shows what was measured: a real run whose responder is killed mid-run (its end-of-run
 * report never comes, so the wall clock's last byte is unknown) and a real run stopped by the user
 * (every report comes). In both the JSON's `partialRate` is the bytes received over the seconds measured,
 * the answer line prints that rate labelled "partial: over the N.N s measured", and the verdict is of
 * what was measured, never "nothing arrived".
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { formatRate } from '../../electron/contract/units.js';
import { cli, waitForOutput } from '../helpers/cli.js';

/** The answer line of a partial run: its rate and the seconds its label names. */
function answerRate(stdout: string): { rate: string; seconds: string } {
  const m = /^Result: (\S+ \S+) \(partial: over the ([\d.]+) s measured\) · (.+)$/m.exec(stdout);
  assert.ok(m, `a labelled partial rate in the answer line: ${stdout}`);
  assert.doesNotMatch(m[3]!, /nothing arrived|limit unknown/, 'a verdict of what was measured');
  return { rate: m[1]!, seconds: m[2]! };
}

/** Seconds as the label prints them (contract/partial-text.ts). */
function labelSeconds(s: number): string {
  return s >= 1 ? s.toFixed(1) : s.toPrecision(2);
}

describe('a partial run is rated over the seconds measured', { timeout: 90_000 }, () => {
  it("responder killed: the receiver's last count over its start to that sample, in the JSON and the answer line", async () => {
    const listen = cli(['listen', '--port', '0', '--bind', '127.0.0.1', '--once']);
    const jsonFile = path.join(os.tmpdir(), `longhaul-partial-rate-${process.pid}.json`);
    try {
      const [, port] = await waitForOutput(listen.child, /listening on [^\s]+:(\d+)/);
      const run = cli(['run', `127.0.0.1:${port}`, '--seconds', '10', '--interval', '0.5', '--json', jsonFile]);
      // Two interval lines (the second ends near 1 s, its start on the receiver's clock): the receiver has sent samples with counts in them.
      await waitForOutput(run.child, /\[\s*0\.\d\d-\s*1\.\d\d s\]/, 20_000);
      listen.child.kill('SIGKILL');
      const r = await run.done;
      assert.equal(r.code, 1, `exit code 1; stderr: ${r.stderr}`);
      const result = JSON.parse(await readFile(jsonFile, 'utf8')) as LonghaulResult;
      assert.equal(result.partial, true);
      assert.equal(result.total.bitsPerSecond, null, "the wall clock needs the receiver's last byte, which it never reported");
      const p = result.total.partialRate;
      assert.ok(p, `partialRate in the JSON: ${JSON.stringify(result.total)}`);
      assert.equal(p.span, 'start-to-last-sample');
      // The bytes are the receiver's last count: the sum of its per-interval counts (each a difference of its cumulative counts).
      const received = result.intervals.reduce((a, iv) => a + (iv.receivedBytes ?? 0), 0);
      assert.ok(received > 0 && result.total.bytes === received, `${result.total.bytes} B total, ${received} B in the intervals`);
      // The seconds: from the first interval's start (the receiver's clock 0, or its first byte) to its last sample.
      const sampled = result.intervals.filter((iv) => iv.responderT !== null);
      const first = result.intervals[0]!;
      const expectedSeconds = sampled.at(-1)!.responderT! - (first.t - first.seconds);
      assert.ok(Math.abs(p.seconds - expectedSeconds) < 1e-9, `${p.seconds} s measured, ${expectedSeconds} s from the intervals`);
      assert.ok(Math.abs(p.bitsPerSecond - (result.total.bytes * 8) / p.seconds) <= 1e-9 * p.bitsPerSecond, 'bytes × 8 / seconds');
      const shown = answerRate(r.stdout);
      assert.equal(shown.rate, formatRate(p.bitsPerSecond));
      assert.equal(shown.seconds, labelSeconds(p.seconds));
      assert.notEqual(result.diagnosis?.[0]?.case, 'unknown/nothing-measured');
      // Every error about the partner names it as the header does (host name and address), none says "the peer".
      const partner = `the responder ${os.hostname()} (127.0.0.1:${port})`;
      assert.ok(r.stdout.includes(`no end-of-run report from ${partner}`), r.stdout);
      const partialBlock = r.stdout.slice(r.stdout.indexOf('PARTIAL RESULT'), r.stdout.indexOf('Result: '));
      assert.doesNotMatch(partialBlock, /the peer\b/, partialBlock);
    } finally {
      listen.child.kill('SIGKILL');
      await rm(jsonFile, { force: true });
    }
  });

  it('stopped by the user: the wall-clock figures, named partial', async () => {
    const jsonFile = path.join(os.tmpdir(), `longhaul-partial-stop-${process.pid}.json`);
    try {
      const run = cli(['loopback', '--seconds', '10', '--interval', '0.5', '--workers', '1', '--json', jsonFile]);
      // The third interval line (from about 1 s to 1.5 s).
      await waitForOutput(run.child, /\[\s*1\.\d\d-\s*1\.\d\d s\]/, 30_000);
      run.child.kill('SIGTERM');
      const r = await run.done;
      assert.equal(r.code, 1, `exit code 1; stderr: ${r.stderr}`);
      const result = JSON.parse(await readFile(jsonFile, 'utf8')) as LonghaulResult;
      assert.equal(result.partialReason, 'stopped by the user');
      const p = result.total.partialRate;
      assert.ok(p && result.total.seconds !== null && result.total.bitsPerSecond !== null, JSON.stringify(result.total));
      assert.deepEqual(p, { seconds: result.total.seconds, bitsPerSecond: result.total.bitsPerSecond, span: 'first-to-last-byte' });
      assert.ok(Math.abs(p.bitsPerSecond - (result.total.bytes * 8) / p.seconds) <= 1e-9 * p.bitsPerSecond, 'bytes × 8 / seconds');
      // Stopped after 1.5 s of the 10 asked, and a stop takes under 5 s (stop-signals.test.ts): never the 10 s asked.
      assert.ok(p.seconds > 1 && p.seconds < 9, `${p.seconds} s measured`);
      const shown = answerRate(r.stdout);
      assert.equal(shown.rate, formatRate(p.bitsPerSecond));
      assert.equal(shown.seconds, labelSeconds(p.seconds));
    } finally {
      await rm(jsonFile, { force: true });
    }
  });
});
