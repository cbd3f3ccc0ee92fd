/**
 * `npm run bench:sweep`: what a sweep costs between its runs on loopback.
 * A sweep of 6 runs of 1 s with a 1 s pause (one long-lived local responder,
 * as `longhaul sweep --loopback`); for each pair of consecutive runs, the gap
 * from the first run's nominal data end (its `running` phase + its seconds) to
 * the next run's `running` phase: teardown, result, the atomic JSON and CSV
 * writes, the pause, the next connection, TLS and stream setup. Printed as the
 * ratio gap / pause and the overhead per run (gap − pause). Goal: under 1 s.
 * Not a test: run it on a quiet machine.
 *
 *   npm run bench:sweep                    # 6 runs of 1 s, pause 1 s
 *   npm run bench:sweep -- --runs 10 --pause 0.5
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SweepPlan } from '../../electron/contract/sweep.js';
import { median } from '../../electron/contract/sweep-plan.js';
import { DEFAULT_PARAMS } from '../../electron/protocol/run-params.js';
import { loadTrust } from '../../electron/security/load-trust.js';
import { LoopbackTarget } from '../../electron/sweep/run-target.js';
import { newSweepFile } from '../../electron/sweep/sweep-file.js';
import { SweepRunner } from '../../electron/sweep/sweep-runner.js';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

async function main(): Promise<void> {
  const runs = arg('--runs', 6);
  const pause = arg('--pause', 1);
  const seconds = 1;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'longhaul-bench-sweep-'));
  const plan: SweepPlan = {
    target: { kind: 'loopback' },
    base: { ...DEFAULT_PARAMS, seconds },
    order: 'shuffled',
    seed: 1,
    dimensions: [{ name: 'bufferBytes', values: [16384, 131072] }],
    repeat: Math.ceil(runs / 2),
    pauseSeconds: pause,
  };
  const target = new LoopbackTarget(await loadTrust(path.join(dir, 'trust')));
  const runner = new SweepRunner({ file: newSweepFile(plan), jsonPath: path.join(dir, 'sweep.json'), csvPath: path.join(dir, 'sweep.csv'), target });
  const running: number[] = [];
  runner.on('run', (run) =>
    run.on('phase', (p) => {
      if (p === 'running') running.push(performance.now());
    }),
  );
  // Other load skews every figure here: say how busy the machine was.
  console.log(
    `load average at start: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')} (${os.availableParallelism()} cores)`,
  );
  const t0 = performance.now();
  let final;
  try {
    final = await runner.start();
  } finally {
    await target.close();
  }
  const wall = (performance.now() - t0) / 1000;
  rmSync(dir, { recursive: true, force: true });
  const gaps = running.slice(1).map((t, i) => (t - running[i]!) / 1000 - seconds);
  const n = final.runs.length;
  console.log(
    `sweep of ${n} runs of ${seconds} s, pause ${pause} s, on loopback (${final.runs.filter((r) => r.status === 'done').length} done); wall ${wall.toFixed(2)} s`,
  );
  for (const [i, g] of gaps.entries())
    console.log(`  run ${i + 1} → ${i + 2}: gap ${g.toFixed(3)} s = ${(g / pause).toFixed(2)} × pause, overhead ${(g - pause).toFixed(3)} s`);
  const m = median(gaps);
  console.log(
    `gap between runs: median ${m.toFixed(3)} s = ${(m / pause).toFixed(2)} × the configured pause; overhead per run ${(m - pause).toFixed(3)} s (max ${(Math.max(...gaps) - pause).toFixed(3)} s)`,
  );
  // First responder start + pairing, once per sweep, and the per-run cost over the whole wall clock.
  const perRun = (wall - n * seconds - (n - 1) * pause) / n;
  console.log(`whole sweep: (wall − runs × seconds − pauses) / runs = ${perRun.toFixed(3)} s per run (includes the responder's start and pairing, once)`);
  console.log(`goal: overhead under 1 s per run: ${m - pause < 1 ? 'met' : 'NOT met'}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
