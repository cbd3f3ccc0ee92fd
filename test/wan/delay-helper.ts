/**
 * Runs the NFQUEUE delay helper (nfq-delay.c) inside the router namespace and
 * waits until it has bound its queue: only then may the iptables rule send
 * packets to it, since a queue without a listener drops them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { LonghaulError } from '../../electron/util/errors.js';
import { ensureDelayHelper } from './helper-build.js';

/** Counters the helper prints when it exits. */
export interface DelayHelperStats {
  packets: number;
  released: number;
  droppedFull: number;
  heldAtExit: number;
}

/** A running helper. */
export interface DelayHelper {
  readonly child: ChildProcess;
  /** Stop it (SIGTERM, then SIGKILL after `graceMs`) and return its counters, null if it printed none. */
  stop(graceMs?: number): Promise<DelayHelperStats | null>;
}

const READY_TIMEOUT_MS = 5_000;

/** Parse the helper's "stats packets=… released=… dropped_full=… held_at_exit=…" line. */
function parseHelperStats(stderr: string): DelayHelperStats | null {
  const m = /stats packets=(\d+) released=(\d+) dropped_full=(\d+) held_at_exit=(\d+)/.exec(stderr);
  if (!m) return null;
  return { packets: Number(m[1]), released: Number(m[2]), droppedFull: Number(m[3]), heldAtExit: Number(m[4]) };
}

/** Start the helper in namespace `ns` on queue `queueNum`, holding each packet `delayMs`. */
export async function startDelayHelper(ns: string, queueNum: number, delayMs: number): Promise<DelayHelper> {
  const bin = await ensureDelayHelper();
  const args = ['netns', 'exec', ns, bin, '--queue', String(queueNum), '--delay-us', String(Math.round(delayMs * 1000))];
  const child = spawn('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not report ready within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
    function fail(why: string): void {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new LonghaulError('LH_ERR_IO', `WAN delay helper in ${ns} ${why}${stderr ? `: ${stderr.trim()}` : ''}`));
    }
    function onData(): void {
      if (!stdout.includes('ready ')) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve();
    }
    child.stdout.on('data', onData);
    child.once('error', (err) => fail(`could not start (${err.message})`));
    child.once('exit', (code, sig) => fail(`exited early (${sig ?? `exit ${String(code)}`})`));
  });
  child.removeAllListeners('exit');

  return {
    child,
    async stop(graceMs = 2_000): Promise<DelayHelperStats | null> {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      return parseHelperStats(stderr);
    },
  };
}
