/**
 * Longhaul and iperf3 at the two ends of a WAN link, both ways, each the real program in
 * its own namespace: `longhaul run --iperf3` in A against `iperf3 -s -1 -J` in B, and
 * `iperf3 -c -J` in A against `longhaul listen --iperf3 --once` in B. Everything is bounded
 * in time; processes still running when a probe fails are killed here (and by the link's
 * destroy() as a second line).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { LonghaulError } from '../../electron/util/errors.js';
import { within } from '../helpers/net.js';
import { REPO_ROOT } from './helper-build.js';
import { waitForOutput } from './run-cmd.js';
import type { WanLink } from './wan-link.js';

const LONGHAUL_BIN = join(REPO_ROOT, 'bin', 'longhaul.js');
const PORT = '5201';

/** One interval of iperf3's -J output (its `sum` over streams). */
export interface Iperf3Interval {
  start: number;
  end: number;
  bytes: number;
}

/** What both ends of one run reported. */
interface InteropRun {
  longhaul: LonghaulResult;
  /** iperf3's own intervals: the server's (receiver) or the client's (sender), its clock. */
  iperf3Intervals: Iperf3Interval[];
  /** iperf3's byte count: received by iperf3 -s, or sent by iperf3 -c. */
  iperf3Bytes: number;
  iperf3Version: string;
  /** UDP runs: iperf3's receiver line (`sum_received`: its own count, or the one Longhaul sent it). */
  iperf3Udp: Iperf3UdpSum | null;
}

/** iperf3's UDP figures of one direction (-J `sum_received`). */
export interface Iperf3UdpSum {
  bytes: number;
  jitter_ms: number;
  lost_packets: number;
  packets: number;
  lost_percent: number;
}

interface Iperf3Json {
  error?: string;
  start?: { version?: string };
  intervals?: { sum?: { start: number; end: number; bytes: number } }[];
  end?: { sum_received?: Partial<Iperf3UdpSum> & { bytes: number }; sum_sent?: { bytes: number } };
}

function parseIperf3(stdout: string, who: string): Iperf3Json {
  let json: Iperf3Json;
  try {
    json = JSON.parse(stdout) as Iperf3Json;
  } catch {
    throw new LonghaulError('LH_ERR_IO', `${who} printed no JSON: ${stdout.slice(0, 400)}`);
  }
  if (json.error) throw new LonghaulError('LH_ERR_IO', `${who}: ${json.error}`);
  return json;
}

function udpOf(json: Iperf3Json): Iperf3UdpSum | null {
  const r = json.end?.sum_received;
  return r && typeof r.packets === 'number' && typeof r.lost_percent === 'number' ? (r as Iperf3UdpSum) : null;
}

function intervalsOf(json: Iperf3Json): Iperf3Interval[] {
  return (json.intervals ?? []).flatMap((i) => (i.sum ? [{ start: i.sum.start, end: i.sum.end, bytes: i.sum.bytes }] : []));
}

/** A run's time plus a few dozen round trips for connecting, the handshake and the results. */
function boundMs(link: WanLink, seconds: number): number {
  return seconds * 1000 + 40 * 2 * link.config.oneWayDelayMs + 20_000;
}

/**
 * Kill the child if it still runs and wait (bounded) until it has exited: its port is free only then.
 * (Returning at the kill let the next test's `iperf3 -s` find port 5201 still held by the last one's
 * `longhaul listen`: iperf3 exited at once, and the probe waited 5 s for a listener that never came.)
 */
async function stopAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await within(exited, 5_000, 'the child to exit after SIGKILL').catch(() => undefined);
}

/** Collect a child's stdout and resolve with it when the child exits. */
function stdoutAtExit(child: ChildProcess): Promise<{ stdout: string; code: number | null }> {
  let stdout = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ stdout, code })));
}

/** Poll `ss` in B until `server` listens on the port (iperf3 -J prints nothing until it is done); an early exit says so at once. */
async function waitForListenInB(link: WanLink, server: ChildProcess, timeoutMs: number): Promise<void> {
  let stderr = '';
  server.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null)
      throw new LonghaulError('LH_ERR_IO', `iperf3 -s in B exited before listening (${server.exitCode ?? server.signalCode}): ${stderr.trim()}`);
    const { stdout } = await link.execInB('ss', ['-Htln', `sport = :${PORT}`]);
    if (stdout.trim()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new LonghaulError('LH_ERR_IO', `iperf3 -s in B did not listen on port ${PORT} within ${timeoutMs} ms`);
}

/** `longhaul run --iperf3 --window W [flags]` in A (sending, unless -R) → `iperf3 -s -1 -J` in B. */
export async function longhaulToIperf3(link: WanLink, seconds: number, window: string, flags: string[] = []): Promise<InteropRun> {
  const dir = await mkdtemp(join(tmpdir(), 'longhaul-wan-iperf3-'));
  const server = link.spawnInB('iperf3', ['-s', '-1', '-J', '-B', link.bAddr, '-p', PORT], { stdio: ['ignore', 'pipe', 'pipe'] });
  const serverDone = stdoutAtExit(server);
  try {
    await waitForListenInB(link, server, 5_000);
    const jsonFile = join(dir, 'result.json');
    await link.execInA(
      process.execPath,
      [LONGHAUL_BIN, 'run', '--iperf3', `${link.bAddr}:${PORT}`, '-t', String(seconds), '--window', window, '--json', jsonFile, ...flags],
      boundMs(link, seconds),
    );
    const { stdout } = await within(serverDone, 10_000, 'iperf3 -s -1 after the run');
    const json = parseIperf3(stdout, 'iperf3 -s');
    return {
      longhaul: JSON.parse(await readFile(jsonFile, 'utf8')) as LonghaulResult,
      iperf3Intervals: intervalsOf(json),
      iperf3Bytes: json.end?.sum_received?.bytes ?? 0,
      iperf3Version: json.start?.version ?? '',
      iperf3Udp: udpOf(json),
    };
  } finally {
    await stopAndWait(server);
    await rm(dir, { recursive: true, force: true });
  }
}

/** `iperf3 -c -J -w W [flags]` in A (sending, unless -R) → `longhaul listen --iperf3 --once` in B; its result comes over IPC. */
export async function iperf3ToLonghaul(link: WanLink, seconds: number, window: string, flags: string[] = []): Promise<InteropRun> {
  // The listener saves its result to History: a folder of the test's own, never the user's.
  const dir = await mkdtemp(join(tmpdir(), 'longhaul-wan-iperf3-history-'));
  const listener = link.spawnInB(process.execPath, [LONGHAUL_BIN, 'listen', '--iperf3', '--port', PORT, '--bind', link.bAddr, '--once'], {
    // `ip netns exec` execs node with the IPC descriptor inherited: the result arrives whole, as JSON.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, LONGHAUL_DATA_DIR: dir },
  });
  const result = new Promise<LonghaulResult>((resolve) => {
    listener.on('message', (m: { type?: string; result?: LonghaulResult }) => {
      if (m.type === 'result' && m.result) resolve(m.result);
    });
  });
  try {
    await waitForOutput(listener, /listening on \S+:(\d+)/, 15_000);
    const { stdout } = await link.execInA(
      'iperf3',
      ['-c', link.bAddr, '-p', PORT, '-J', '-t', String(seconds), '-w', window, '--connect-timeout', '10000', ...flags],
      boundMs(link, seconds),
    );
    const json = parseIperf3(stdout, 'iperf3 -c');
    return {
      longhaul: await within(result, 10_000, 'longhaul listen --iperf3 result'),
      iperf3Intervals: intervalsOf(json),
      iperf3Bytes: json.end?.sum_sent?.bytes ?? 0,
      iperf3Version: json.start?.version ?? '',
      iperf3Udp: udpOf(json),
    };
  } finally {
    await stopAndWait(listener);
    await rm(dir, { recursive: true, force: true });
  }
}
