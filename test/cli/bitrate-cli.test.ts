/**
 * `-b, --bitrate` on loopback, as a user runs it: the aggregate comes out at the asked rate
 * (per stream × streams, ±15 %: the machine is shared), the kernel's own view (TCP_INFO's
 * pacing rate) is the asked rate where it paced, Longhaul's own pacing holds it where the
 * kernel does not (forced here with LONGHAUL_PACING=own, on the native loop and on Node's),
 * and a bad value exits 2 naming the flag.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { sweepPlanFromFlags } from '../../electron/cli/sweep-options.js';
import { cli } from '../helpers/cli.js';

const TOLERANCE = 0.15;

async function pacedRun(args: string[], env: Record<string, string> = {}): Promise<LonghaulResult> {
  const file = path.join(os.tmpdir(), `longhaul-bitrate-${process.pid}-${Math.random().toString(16).slice(2)}.json`);
  try {
    const r = await cli(['loopback', '-t', '3', '--json', file, ...args], 40_000, env).done;
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Bitrate \(--bitrate, per stream\): /, 'the summary names the rate and its scope');
    assert.match(
      r.stdout,
      /^Result: (\w+ -> \w+: )?[\d.]+ [kM]bit\/s · application-limited: the senders were paced to [\d.]+ Mbit\/s\.$/m,
      'the answer names the pacing',
    );
    return JSON.parse(await readFile(file, 'utf8')) as LonghaulResult;
  } finally {
    await rm(file, { force: true });
  }
}

function assertRate(r: LonghaulResult, asked: number): void {
  const measured = r.total.bitsPerSecond ?? 0;
  const ratio = measured / asked;
  assert.ok(Math.abs(ratio - 1) <= TOLERANCE, `aggregate ${(measured / 1e6).toFixed(2)} Mbit/s for ${asked / 1e6} Mbit/s asked (ratio ${ratio.toFixed(3)})`);
}

describe('longhaul -b/--bitrate', { timeout: 150_000 }, () => {
  for (const [args, why] of [
    [['run', '127.0.0.1', '-b', '0'], 'zero'],
    [['run', '127.0.0.1', '--bitrate', '12Q'], 'a typo'],
    [['run', '127.0.0.1', '--bitrate', '500'], 'below 1 kbit/s'],
    [['run', '127.0.0.1', '--bitrate', '2000g'], 'above 1 Tbit/s'],
    [['loopback', '-b', '-5M'], 'negative'],
  ] as const) {
    it(`${args.slice(1).join(' ')} (${why}) → exit 2 naming --bitrate`, async () => {
      const r = await cli([...args]).done;
      assert.equal(r.code, 2, `exit code; stdout: ${r.stdout} stderr: ${r.stderr}`);
      assert.ok(r.stderr.includes('--bitrate'), `stderr names --bitrate: ${r.stderr}`);
    });
  }

  it('sweep -b 5M: every run of the plan is paced at 5 Mbit/s per stream (the base, not a dimension)', () => {
    const plan = sweepPlanFromFlags(null, { loopback: true, streams: [1, 2], seconds: 2, interval: 1, repeat: 1, pause: 0, order: 'sequential', bitrate: 5e6 });
    assert.equal(plan.base.bitrateBitsPerSec, 5e6);
    assert.deepEqual(
      plan.dimensions.map((d) => d.name),
      ['streams'],
    );
  });

  it('loopback -b 50M -t 3: 50 Mbit/s (±15 %), paced by the kernel, whose TCP_INFO pacing rate is the asked rate', async () => {
    const r = await pacedRun(['-b', '50M']);
    assertRate(r, 50e6);
    assert.equal(r.params.bitrateBitsPerSec, 50e6);
    assert.equal(r.pacing?.scope, 'per stream');
    const side = r.pacing?.sides.find((s) => s.side === 'controller');
    assert.equal(side?.mechanism, 'kernel SO_MAX_PACING_RATE', r.pacing?.note);
    // What the kernel did: tcpi_pacing_rate is min(its own rate, SO_MAX_PACING_RATE) = 6,250,000 B/s.
    const rates = (r.streams[0]?.send?.tcp ?? []).map((t) => t.pacingRateBitsPerSecond).filter((x): x is number => typeof x === 'number');
    assert.ok(rates.length > 0, 'the sender read TCP_INFO pacing rates');
    for (const rate of rates) assert.ok(rate <= 50e6, `tcpi_pacing_rate ${rate} bit/s at most the cap`);
    assert.equal(Math.max(...rates), 50e6, 'the cap is what the kernel paced at');
    assert.equal(r.diagnosis?.[0]?.verdict, 'application-limited');
    assert.deepEqual(
      (r.advice ?? []).map((a) => a.topic),
      ['application'],
      'the pacing, not a buffer or a window, is the advice',
    );
  });

  it('loopback --bidir -b 20M: the responder paces its senders too (it gets the rate with the run), 20 Mbit/s each way', async () => {
    const r = await pacedRun(['--bidir', '-b', '20M']);
    for (const key of ['controllerToResponder', 'responderToController'] as const) {
      const ratio = (r.directions[key]?.bitsPerSecond ?? 0) / 20e6;
      assert.ok(Math.abs(ratio - 1) <= TOLERANCE, `${key}: ratio ${ratio.toFixed(3)}`);
    }
    assert.deepEqual(
      r.pacing?.sides.map((s) => [s.side, s.mechanism]),
      [
        ['controller', 'kernel SO_MAX_PACING_RATE'],
        ['responder', 'kernel SO_MAX_PACING_RATE'],
      ],
    );
    assert.deepEqual(
      r.diagnosis?.map((d) => d.verdict),
      ['application-limited', 'application-limited'],
    );
  });

  for (const [dataPath, io] of [
    ['native', 'native'],
    ['node', 'node'],
  ] as const) {
    it(`LONGHAUL_PACING=own on the ${io} loop: -P 2 -b 25M gives 50 Mbit/s in all (±15 %), "Longhaul's own pacing"`, async () => {
      const r = await pacedRun(['-P', '2', '-b', '25M'], { LONGHAUL_PACING: 'own', LONGHAUL_DATA_PATH: dataPath });
      assertRate(r, 50e6);
      assert.equal(r.pacing?.totalBitsPerSec, 50e6);
      assert.equal(r.pacing?.sides[0]?.mechanism, "Longhaul's own pacing", r.pacing?.note);
      for (const s of r.streams) assert.equal(s.send?.io, io);
    });
  }
});
