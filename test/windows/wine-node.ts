/**
 * Runs Windows programs (the lane's node.exe above all) under Wine for tests:
 * docs/windows-lane.md. Every run is bounded and leaves no process behind.
 *
 * Why files for stdio: node.exe under Wine fails with EBADF when stdout or stderr
 * is a pipe, so each run writes them to files that are read when it exits.
 * Why a lock: `wineserver -k` ends every process of the prefix, so the test files
 * that use the lane take turns (node --test runs files in parallel on larger machines).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, openSync, closeSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, type TestContext } from 'node:test';
import { laneDir, nodeExePath, prefixDir, PROJECT_DIR, WIN_ADDON, wineEnv } from '../../scripts/windows-lane/lane.js';

interface WineRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the run was killed at `timeoutMs`. */
  timedOut: boolean;
  ms: number;
}

interface WineRunOptions {
  /** Added to the environment (after the lane's own variables, so they can be overridden). */
  env?: NodeJS.ProcessEnv;
  /** Linux folder to start in (Wine maps it to Z:\…). Default: the project. */
  cwd?: string;
  /** Kill the run (its whole process group, then the prefix's wineserver) after this. Default 60 s. */
  timeoutMs?: number;
  /** Linux path of the Windows executable for runWindowsNode (a renamed node.exe, say). */
  exe?: string;
}

/** Variables of the test process a Windows child must not inherit: Node's own plumbing, Linux paths. */
function inheritedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(NODE_OPTIONS|NODE_TEST_CONTEXT|NODE_CHANNEL_FD|NODE_CHANNEL_SERIALIZATION_MODE|NODE_UNIQUE_ID|LONGHAUL_.*)$/.test(k)) continue;
    env[k] = v;
  }
  return env;
}

/** Why the lane cannot run here, or null when it can. */
function laneMissingReason(): string | null {
  if (process.platform !== 'linux') return `the Windows lane runs on Linux only (this is ${process.platform})`;
  if (spawnSync('wine', ['--version'], { stdio: 'ignore', timeout: 30_000 }).error) return 'wine is not installed';
  if (!existsSync(nodeExePath())) return `the Windows node.exe is not cached (${nodeExePath()})`;
  if (!existsSync(path.join(prefixDir(), 'system.reg'))) return `the Wine prefix is not initialised (${prefixDir()})`;
  if (!existsSync(path.join(PROJECT_DIR, WIN_ADDON))) return `the Windows addon is not built (${WIN_ADDON})`;
  return null;
}

/**
 * Skips the test when the lane is missing here, saying why and how to set it up —
 * except under CI, where the lane is part of the setup and a missing one fails.
 * Returns true when the test can go on.
 */
export function laneReady(t: TestContext): boolean {
  const reason = laneMissingReason();
  if (!reason) return true;
  const ci = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false' && process.env.CI !== '0';
  if (process.platform === 'linux' && ci) assert.fail(`Windows lane missing under CI: ${reason}`);
  t.skip(`${reason}; bash scripts/windows-lane/setup.sh sets the lane up`);
  return false;
}

/** Runs `exe ARGS` under Wine with the lane's prefix; see WineRunOptions. Never rejects on the program's failure. */
export async function runWine(exe: string, args: string[], opts: WineRunOptions = {}): Promise<WineRun> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const io = mkdtempSync(path.join(os.tmpdir(), 'longhaul-wine-io-'));
  const outFile = path.join(io, 'stdout');
  const errFile = path.join(io, 'stderr');
  const out = openSync(outFile, 'w');
  const err = openSync(errFile, 'w');
  const started = performance.now();
  // detached: a process group of its own. Wine re-parents the Windows children a
  // program starts to init, but they stay in this group, so one kill reaches them all.
  const child = spawn('wine', [exe, ...args], {
    cwd: opts.cwd ?? PROJECT_DIR,
    env: { ...inheritedEnv(), ...wineEnv(), ...opts.env },
    stdio: ['ignore', out, err],
    detached: true,
  });
  closeSync(out);
  closeSync(err);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('error', () => resolve([null, null]));
    child.once('exit', (c, s) => resolve([c, s]));
  });
  clearTimeout(timer);
  // Whatever the program left running in its group goes too.
  killGroup(child.pid);
  if (timedOut) await stopWine();
  const run: WineRun = {
    code,
    signal,
    timedOut,
    ms: performance.now() - started,
    stdout: readFileSync(outFile, 'utf8'),
    stderr: readFileSync(errFile, 'utf8'),
  };
  rmSync(io, { recursive: true, force: true });
  return run;
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already empty.
  }
}

/**
 * Runs the lane's node.exe (or `opts.exe`) with ARGS. PREBUILDS_ONLY=1 makes
 * node-gyp-build skip native/build/Release, where the Linux addon lives, and load
 * native/prebuilds/win32-x64/node.napi.node.
 */
export function runWindowsNode(args: string[], opts: WineRunOptions = {}): Promise<WineRun> {
  return runWine(opts.exe ?? nodeExePath(), args, { ...opts, env: { PREBUILDS_ONLY: '1', ...opts.env } });
}

/** Ends every process of the lane's prefix and its wineserver (bounded). */
export async function stopWine(): Promise<void> {
  spawnSync('wineserver', ['-k'], { env: { ...process.env, ...wineEnv() }, stdio: 'ignore', timeout: 20_000 });
}

/** A Linux path as Windows programs in the prefix see it: Z: is the Linux root. */
export function toWindowsPath(linuxPath: string): string {
  assert.ok(path.isAbsolute(linuxPath), `not an absolute path: ${linuxPath}`);
  return `Z:${path.resolve(linuxPath).replaceAll('/', '\\')}`;
}

/** Where a C:\ or Z:\ path of the prefix is on Linux. */
export function toLinuxPath(windowsPath: string): string {
  const m = /^([a-zA-Z]):\\?(.*)$/.exec(windowsPath);
  assert.ok(m, `not a drive path: ${windowsPath}`);
  const rest = m[2]!.split('\\').filter(Boolean);
  const drive = m[1]!.toLowerCase();
  if (drive === 'z') return path.join('/', ...rest);
  assert.equal(drive, 'c', `only C: and Z: are mapped by the lane: ${windowsPath}`);
  return path.join(prefixDir(), 'drive_c', ...rest);
}

/** The Wine user's profile folder, C:\users\<name> (the Linux user's name). */
export function windowsUserDir(): string {
  const users = path.join(prefixDir(), 'drive_c', 'users');
  const names = readdirSync(users).filter((n) => n !== 'Public');
  const name = names.includes(os.userInfo().username) ? os.userInfo().username : names[0];
  assert.ok(name, `no user profile in ${users}`);
  return `C:\\users\\${name}`;
}

/** A fresh folder C:\users\<name>\My Results\<unique>\ (spaces on purpose), removed after the test. */
/** Until something listens on TCP `port` on this machine (a Windows program under Wine shows in Linux's `ss`), bounded. */
export async function listening(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (execFileSync('ss', ['-Htln', `( sport = :${port} )`], { encoding: 'utf8' }).trim()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listened on ${port} under Wine within ${ms} ms`);
}

export function resultsDirWithSpaces(t: TestContext): { win: string; linux: string } {
  const parent = toLinuxPath(`${windowsUserDir()}\\My Results`);
  mkdirSync(parent, { recursive: true });
  const linux = mkdtempSync(path.join(parent, 'run '));
  t.after(() => rmSync(linux, { recursive: true, force: true }));
  return { win: `${windowsUserDir()}\\My Results\\${path.basename(linux)}`, linux };
}

const LOCK = (): string => path.join(laneDir(), 'prefix.lock');

function lockHolder(): number | null {
  try {
    return Number(readFileSync(path.join(LOCK(), 'pid'), 'utf8')) || null;
  } catch {
    return null;
  }
}

function lockMtimeMs(): number {
  try {
    return statSync(LOCK()).mtimeMs;
  } catch {
    return Date.now();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Takes the lane's prefix for this test file (waits up to `ms` for another file to finish). */
async function acquireLane(ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      mkdirSync(LOCK());
      writeFileSync(path.join(LOCK(), 'pid'), String(process.pid));
      return;
    } catch {
      const holder = lockHolder();
      // A holder that died without releasing (a killed test run) leaves a stale lock;
      // one without a pid after 30 s died between taking the lock and naming itself.
      const stale = holder === null ? Date.now() - lockMtimeMs() > 30_000 : !alive(holder);
      if (stale) rmSync(LOCK(), { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`the Windows lane is still taken by pid ${holder} after ${ms / 1000} s`);
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/**
 * Call once at the top of a test file (or describe) that runs Wine: it takes the
 * lane's prefix before the tests and, after them, ends every Wine process of the
 * prefix and gives the prefix back.
 */
export function useWindowsLane(waitMs = 600_000): void {
  let held = false;
  before(
    async () => {
      if (laneMissingReason()) return;
      await acquireLane(waitMs);
      held = true;
    },
    { timeout: waitMs + 10_000 },
  );
  after(async () => {
    if (!held) return;
    await stopWine();
    rmSync(LOCK(), { recursive: true, force: true });
  });
}
