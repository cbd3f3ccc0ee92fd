/**
 * CPU per side and per data thread, measured for real: a `longhaul run` against
 * a `longhaul listen` on loopback, each its own process tree, checked against
 * the kernel's own count (cgroup v1 cpuacct). Then the responder under a CPU
 * quota (cgroup v1 cpu, 20 % of one core): its figure must stay under the
 * quota while the controller's is whatever the controller used.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { CpuUse, LonghaulResult } from '../../electron/contract/result.js';
import { cli, waitForOutput } from '../helpers/cli.js';
import { cgroupSkipReason, TestCgroup } from '../helpers/cgroup.js';
import { skipWithoutNative } from '../helpers/native.js';

const SECONDS = 3;
const QUOTA = 0.2;

interface Measured {
  result: LonghaulResult;
  /** The kernel's CPU seconds for each process tree from the first interval line to the end. */
  kernel: { controller: number; responder: number };
  /** CFS periods in which the quota held the responder back (0 without a quota, or when it never asked for more). */
  throttledPeriods: number;
}

/** One run; the responder (and the data workers it forks) optionally held to `quota` of one core. */
async function measuredRun(tag: string, quota: number | null): Promise<Measured> {
  const name = `longhaul-test-${process.pid}-${tag}`;
  const groups: TestCgroup[] = [];
  const jsonFile = path.join(os.tmpdir(), `${name}.json`);
  const listen = cli(['listen', '--port', '0', '--bind', '127.0.0.1', '--once'], 60_000);
  try {
    const [, port] = await waitForOutput(listen.child, /listening on [^\s]+:(\d+)/);
    const rAcct = new TestCgroup('cpuacct', `${name}-r`);
    groups.push(rAcct);
    rAcct.add(listen.child.pid!);
    if (quota !== null) {
      const cpu = new TestCgroup('cpu', name);
      groups.push(cpu);
      cpu.limit(quota);
      cpu.add(listen.child.pid!);
    }
    const run = cli(['run', `127.0.0.1:${port}`, '--seconds', String(SECONDS), '--interval', '0.5', '--json', jsonFile], 60_000);
    const cAcct = new TestCgroup('cpuacct', `${name}-c`);
    groups.push(cAcct);
    cAcct.add(run.child.pid!); // before it has forked its data workers: they start in the group
    await waitForOutput(run.child, /\[\s*0\.00-\s*0\.5\d s\]/, 30_000);
    const at = { controller: cAcct.usageSeconds(), responder: rAcct.usageSeconds() };
    const r = await run.done;
    assert.equal(r.code, 0, `longhaul run: ${r.stderr}`);
    await listen.done;
    const kernel = { controller: cAcct.usageSeconds() - at.controller, responder: rAcct.usageSeconds() - at.responder };
    const throttledPeriods = groups.find((g) => g.controller === 'cpu')?.throttledPeriods() ?? 0;
    return { result: JSON.parse(await readFile(jsonFile, 'utf8')) as LonghaulResult, kernel, throttledPeriods };
  } finally {
    listen.child.kill('SIGKILL');
    await rm(jsonFile, { force: true });
    await new Promise((resolve) => setTimeout(resolve, 200)); // the killed tree leaves its groups
    for (const g of groups) g.remove();
  }
}

/** The figures, for the test's output: what a reader compares with the assertions. */
function summary(m: Measured): string {
  const side = (c: CpuUse | null | undefined): string =>
    c
      ? `${c.shareOfOneCore.toFixed(3)} of one core (threads ${c.threads?.map((t) => `${t.kind} ${t.shareOfOneCore.toFixed(3)}`).join(', ') ?? 'none'})`
      : 'none';
  const k = m.kernel;
  return `controller ${side(m.result.cpu?.controller)}, responder ${side(m.result.cpu?.responder)}; kernel (last ~2.5 s): controller ${k.controller.toFixed(3)} s, responder ${k.responder.toFixed(3)} s; quota throttled ${m.throttledPeriods} periods`;
}

function cpuSeconds(c: CpuUse): number {
  return c.userSeconds + c.systemSeconds;
}

/** What every side's figures must satisfy, whatever the load. */
function consistent(c: CpuUse, label: string): void {
  assert.ok(c.wallSeconds > SECONDS * 0.8 && c.wallSeconds < SECONDS * 3, `${label}: wall ${c.wallSeconds} s covers the transfer`);
  assert.equal(c.cores, os.availableParallelism());
  assert.ok(Math.abs(c.shareOfOneCore - cpuSeconds(c) / c.wallSeconds) < 1e-9, `${label}: share of one core = CPU ÷ wall`);
  assert.ok(Math.abs(c.shareOfPc - c.shareOfOneCore / c.cores) < 1e-9, `${label}: share of the PC = share of one core ÷ cores`);
  assert.ok(c.threads && c.threads.length > 0, `${label}: the native loop's threads are recorded`);
  for (const t of c.threads) {
    assert.ok(t.cpuSeconds > 0, `${label}: a ${t.kind} thread used CPU: ${JSON.stringify(t)}`);
    assert.ok(t.shareOfOneCore > 0 && t.shareOfOneCore <= 1.05, `${label}: a thread uses at most one core: ${JSON.stringify(t)}`);
    assert.ok(t.cpuSeconds <= cpuSeconds(c) + 0.01, `${label}: a thread's CPU is part of its process tree's`);
  }
}

const skip = cgroupSkipReason() ?? skipWithoutNative;

describe('CPU per side and per data thread (real processes, cgroup v1)', { skip, timeout: 150_000 }, () => {
  it('a loopback run records each side and each native thread, as the kernel counts them', async (t) => {
    const m = await measuredRun('free', null);
    t.diagnostic(summary(m));
    const { result, kernel } = m;
    assert.ok(result.cpu?.controller && result.cpu.responder, JSON.stringify(result.cpu));
    consistent(result.cpu.controller, 'controller');
    consistent(result.cpu.responder, 'responder');
    assert.deepEqual(
      result.cpu.controller.threads!.flatMap((t) => t.streams),
      [0],
    );
    assert.equal(result.cpu.controller.threads![0]!.kind, 'sender');
    assert.equal(result.cpu.responder.threads![0]!.kind, 'receiver');
    // The kernel's count covers the last ~2.5 s of the transfer (from the first interval line):
    // without the data workers, Longhaul's figure would be a small part of it.
    for (const side of ['controller', 'responder'] as const) {
      const ours = cpuSeconds(result.cpu[side]!);
      assert.ok(
        ours >= 0.6 * kernel[side],
        `${side}: ${ours.toFixed(3)} s measured, the kernel counted ${kernel[side].toFixed(3)} s of its tree in the same run`,
      );
    }
  });

  it(`a responder held to ${QUOTA * 100} % of one core reports at most the quota; the controller is not held to it`, async (t) => {
    const m = await measuredRun('quota', QUOTA);
    t.diagnostic(summary(m));
    const { result, kernel } = m;
    assert.ok(result.cpu?.controller && result.cpu.responder, JSON.stringify(result.cpu));
    consistent(result.cpu.responder, 'responder');
    consistent(result.cpu.controller, 'controller');
    const r = result.cpu.responder;
    assert.ok(r.shareOfOneCore <= 0.3, `responder ${r.shareOfOneCore.toFixed(3)} of one core, under a ${QUOTA} quota`);
    assert.ok(r.shareOfOneCore > 0.02, `the responder measured its own work: ${r.shareOfOneCore}`);
    // Each side's figure is its own tree's, as the kernel counted it: the controller's is not held to the responder's quota.
    for (const side of ['controller', 'responder'] as const) {
      const ours = cpuSeconds(result.cpu[side]!);
      assert.ok(ours >= 0.6 * kernel[side], `${side}: ${ours.toFixed(3)} s measured, the kernel counted ${kernel[side].toFixed(3)} s`);
    }
    assert.ok(kernel.responder <= QUOTA * (SECONDS + 1) + 0.05, `the quota held: the responder's tree used ${kernel.responder.toFixed(3)} s`);
  });
});
