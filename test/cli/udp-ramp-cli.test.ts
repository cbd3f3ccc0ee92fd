/**
 * `longhaul loopback --udp-ramp` as a user runs it: a table row per step, the answer, the JSON document
 * with every step's result; and what it cannot go with, refused naming the flag (exit 2) before any
 * run. On loopback nothing drops below what this PC can send or receive, so the ramp ends at this
 * PC's limit (the sender short, or the receiver's socket overflowing: on Linux its OS counts those
 * drops, so the ramp says the receiving PC, not the path) after several doublings; which of the two
 * depends on the machine.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { UdpRampOutcome } from '../../electron/contract/udp-ramp.js';
import { cli } from '../helpers/cli.js';

describe('longhaul loopback --udp-ramp', { timeout: 180_000 }, () => {
  it('steps up from -b, prints a row per step and one answer, and writes every step', { timeout: 150_000 }, async () => {
    const file = path.join(os.tmpdir(), `longhaul-ramp-${process.pid}.json`);
    try {
      // From 64M: loopback's limit here is some hundreds of Mbit/s, a few doublings up.
      const run = await cli(['loopback', '--udp-ramp', '-t', '1', '-b', '64M', '--json', file], 140_000).done;
      const o = JSON.parse(await readFile(file, 'utf8')) as UdpRampOutcome;
      assert.equal(o.schema, 'longhaul.udp-ramp/1');
      assert.equal(o.results.length, o.steps.length);
      assert.ok(o.steps.length >= 1, 'at least one step');
      assert.equal(o.steps[0]?.askedBitsPerSec, 64e6, 'from -b');
      assert.ok(
        o.results.every((r) => r.params.protocol === 'udp' && r.params.seconds === 1),
        'each step a 1-s UDP run',
      );
      assert.match(run.stdout, /^UDP ramp to 127\.0\.0\.1 \(a responder on this PC\): 1 stream, 1 s per step/m);
      assert.match(run.stdout, /^step\s+-b per stream\s+arrived\s+lost\s+jitter\s+finding$/m);
      assert.match(run.stdout, /^\s+1\s+64M\s+[\d.]+ [MG]bit\/s\s+[\d.]+ %\s+[\d.]+ ms\s+(carried|the receiving PC dropped it|this PC could not send it)$/m);
      assert.equal((run.stdout.match(/^Result: /gm) ?? []).length, 1, 'one answer');
      // This PC's limit ends it: a sender that could not keep up, or a receiving socket that overflowed
      // (loopback's only drop point, so never "the path carries": no step is dropped on the way).
      assert.ok(['sender-limit', 'receiver-limit', 'max-steps'].includes(o.end), `${o.end}: ${run.stdout}`);
      assert.ok(!o.steps.some((s) => s.outcome === 'dropped'), `no drop blamed on loopback's "path": ${run.stdout}`);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      if (o.end === 'receiver-limit')
        assert.match(
          run.stdout,
          /^Result: the path carried .* the receiving PC dropped [\d,]+ datagrams itself, its socket buffer full, so the ramp stopped at the receiving PC's limit/m,
        );
      if (o.end === 'sender-limit')
        assert.match(run.stdout, /^Result: the path carried .* this PC could not send on time, so the ramp stopped at this PC's limit/m);
    } finally {
      await rm(file, { force: true });
    }
  });

  for (const [flags, named] of [
    [['--bidir'], '--bidir'],
    [['-n', '1M'], '-n'],
    [['--capacity'], '--capacity'],
    [['--log', '/tmp/never.log'], '--log'],
    [['--link-json', '{"up":[],"down":[]}'], '--link-config'],
  ] as const) {
    it(`refuses ${flags.join(' ')} with the reason, before any run`, async () => {
      const run = await cli(['loopback', '--udp-ramp', ...flags], 20_000).done;
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stderr, new RegExp(`--udp-ramp with ${named.replace(/[-]/g, '\\-')}: `));
      assert.doesNotMatch(run.stdout, /UDP ramp to/);
    });
  }

  it('refuses a threshold that is not a percentage', async () => {
    const run = await cli(['loopback', '--udp-ramp', 'lots'], 20_000).done;
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--udp-ramp: "lots" is not a loss threshold/);
  });
});
