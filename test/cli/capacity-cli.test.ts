/**
 * `--capacity` as a newcomer runs it: on loopback the tuned run follows the user's, the
 * result carries `capacity` and the summary says what the path carried; with both ends on
 * one PC that figure is a floor (this PC's CPU), never a path rate. Where it cannot apply
 * (an iperf3 server, several responders) it exits 2 naming the flag.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { cli } from '../helpers/cli.js';

describe('longhaul --capacity', { timeout: 120_000 }, () => {
  for (const [args, why] of [
    [['run', '127.0.0.1', '--iperf3', '--capacity'], 'an iperf3 server'],
    [['run', '127.0.0.1', '127.0.0.2', '--capacity'], 'several responders'],
  ] as const) {
    it(`${args.slice(1).join(' ')} (${why}) → exit 2 naming --capacity`, async () => {
      const r = await cli([...args]).done;
      assert.equal(r.code, 2, `exit code; stdout: ${r.stdout} stderr: ${r.stderr}`);
      assert.ok(r.stderr.includes('--capacity'), `stderr names --capacity: ${r.stderr}`);
    });
  }

  it('loopback --capacity: the tuned run follows, its figure a floor named as the CPU, the verdict untouched by it', async () => {
    const file = path.join(os.tmpdir(), `longhaul-capacity-${process.pid}.json`);
    try {
      const r = await cli(['loopback', '-t', '2', '--capacity', '--json', file], 90_000).done;
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /measuring the path: Longhaul's own run, 4 streams × [\d,]+-byte windows/);
      assert.match(r.stdout, /Path capacity \(measured by Longhaul, controller -> responder\): /);
      const res = JSON.parse(await readFile(file, 'utf8')) as LonghaulResult;
      const c = res.capacity;
      assert.ok(c, 'the result carries capacity');
      assert.equal(c.streams, 4);
      assert.ok(c.payloadBitsPerSecond !== null && c.payloadBitsPerSecond > 0, JSON.stringify(c));
      assert.equal(c.wireBitsPerSecond, null, "loopback's segments do not fill its MTU: the wire rate is unknown");
      assert.ok(c.phaseSeconds > 0 && c.phaseSeconds < 30, `phase ${c.phaseSeconds} s`);
      assert.equal(res.partial, false, "the user's run is whole");
      // Both ends on one PC: what the tuned run carried is this PC's CPU, not a path; no path rate is made of it.
      if (c.lowerBound === 'cpu') assert.equal(res.pathRate, undefined);
      else assert.equal(res.pathRate?.source, 'measured');
    } finally {
      await rm(file, { force: true });
    }
  });
});
