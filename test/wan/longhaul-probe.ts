/**
 * Longhaul itself through a WAN link: `longhaul listen --port 0 --once` in B,
 * `longhaul run <B>:<port>` in A, both the real CLI in their own namespaces.
 * Returns the controller's result document (longhaul.result/1).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LonghaulResult } from '../../electron/contract/result.js';
import type { UdpRampOutcome } from '../../electron/contract/udp-ramp.js';
import { within } from '../helpers/net.js';
import { REPO_ROOT } from './helper-build.js';
import { waitForOutput } from './run-cmd.js';
import type { WanLink } from './wan-link.js';

const LONGHAUL_BIN = join(REPO_ROOT, 'bin', 'longhaul.js');

export interface LonghaulRunOptions {
  /** Length of the run (`-t`); with `-n` in the flags, the expected length (bounds the wait). */
  seconds: number;
  /** Extra `longhaul run` flags, e.g. ['--window', '16K']. */
  flags?: string[];
  /** Called with the listener's pid once it listens, before the run starts (e.g. to put it in a CPU cgroup). */
  onListener?: (pid: number) => Promise<void>;
}

/** `-t seconds`, unless the flags stop the run by bytes (`-n`/`--bytes`, which the CLI does not take with `-t`); `seconds` then only bounds the wait. */
function stopAfter(opts: LonghaulRunOptions): string[] {
  const byBytes = (opts.flags ?? []).some((f) => f === '-n' || f === '--bytes' || f.startsWith('--bytes='));
  return byBytes ? [] : ['-t', String(opts.seconds)];
}

/**
 * `--capacity` runs a second, tuned run against the same listener, `--udp-ramp` a dozen: then it must not
 * be `--once`. A ramp's steps are bounded by the CLI (24 at most), each its seconds and a few RTTs.
 */
export function listensForRuns(opts: LonghaulRunOptions): { once: string[]; extraMs: number } {
  const flags = opts.flags ?? [];
  if (flags.includes('--udp-ramp')) return { once: [], extraMs: 24 * (opts.seconds * 1000 + 3000) };
  const capacity = flags.includes('--capacity');
  return { once: capacity ? [] : ['--once'], extraMs: capacity ? 70_000 : 0 };
}

/** Run longhaul from A to B through the link; resolves with the controller's result. */
export async function longhaulAtoB(link: WanLink, opts: LonghaulRunOptions): Promise<LonghaulResult> {
  return (await runAtoB(link, opts)) as LonghaulResult;
}

/** `longhaul run --udp-ramp` from A to B (the flags must hold --udp-ramp); resolves with the ramp's document. */
export async function longhaulRampAtoB(link: WanLink, opts: LonghaulRunOptions): Promise<UdpRampOutcome> {
  return (await runAtoB(link, opts)) as UdpRampOutcome;
}

async function runAtoB(link: WanLink, opts: LonghaulRunOptions): Promise<unknown> {
  const dir = await mkdtemp(join(tmpdir(), 'longhaul-wan-'));
  const runs = listensForRuns(opts);
  const listener = link.spawnInB(process.execPath, [LONGHAUL_BIN, 'listen', '--port', '0', ...runs.once], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const listenerDone = new Promise<void>((resolve) => listener.once('close', () => resolve()));
  try {
    const m = await waitForOutput(listener, /listening on \S+:(\d+)/, 15_000);
    const port = m[1]!;
    if (opts.onListener && listener.pid !== undefined) await opts.onListener(listener.pid);
    const jsonFile = join(dir, 'result.json');
    const rttMs = 2 * link.config.oneWayDelayMs;
    // Handshake and result exchange take a few RTTs on top of the run itself.
    const boundMs = opts.seconds * 1000 + 20 * rttMs + 20_000 + runs.extraMs;
    await link.execInA(
      process.execPath,
      [LONGHAUL_BIN, 'run', `${link.bAddr}:${port}`, ...stopAfter(opts), '--json', jsonFile, ...(opts.flags ?? [])],
      boundMs,
    );
    if (!runs.once.length) listener.kill('SIGTERM');
    await within(listenerDone, 10_000, 'longhaul listen --once after the run');
    // A result (longhaul.result/1), or with --udp-ramp the ramp's document (longhaul.udp-ramp/1).
    return JSON.parse(await readFile(jsonFile, 'utf8')) as unknown;
  } finally {
    if (listener.exitCode === null && listener.signalCode === null) listener.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}
