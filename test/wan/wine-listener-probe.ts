/**
 * Longhaul's Windows build as the responder on the kernel WAN harness: the lane's node.exe under
 * Wine runs `longhaul listen --port 0 --once` in namespace B, the Linux CLI runs `longhaul run` in A
 * (docs/windows-lane.md). Returns the Linux controller's result document.
 *
 * Why the wineserver is stopped first: Wine creates a program's sockets in its wineserver, one per
 * prefix, so a wineserver already running in the root namespace would open B's listener there. The
 * one started here lives in B and is ended (`wineserver -k`, bounded) afterwards, also on failure.
 * Why files for stdio: node.exe under Wine fails with EBADF when stdout or stderr is a pipe.
 * Both ends share one trust folder (Linux and Z:\ paths of the same files): the same identity, so no pairing.
 */
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { nodeExePath, PROJECT_DIR, wineEnv } from '../../scripts/windows-lane/lane.js';
import { within } from '../helpers/net.js';
import { stopWine, toWindowsPath } from '../windows/wine-node.js';
import { listensForRuns, type LonghaulRunOptions } from './longhaul-probe.js';
import type { WanLink } from './wan-link.js';

const LONGHAUL_BIN = join(PROJECT_DIR, 'bin', 'longhaul.js');
/** node.exe's start under Wine on the loaded 2-core machine: the local responder's own bound is 30 s. */
const WINE_LISTEN_MS = 45_000;

/** The environment without Node's test plumbing and Linux LONGHAUL_* paths (a Windows child must not inherit them). */
function windowsChildEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(NODE_OPTIONS|NODE_TEST_CONTEXT|NODE_CHANNEL_FD|NODE_CHANNEL_SERIALIZATION_MODE|NODE_UNIQUE_ID|LONGHAUL_.*)$/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...wineEnv(), PREBUILDS_ONLY: '1', ...extra };
}

/** Polls `file` until `re` matches its text, the process exits, or `ms` pass. */
async function waitForFile(file: string, re: RegExp, ms: number, exited: () => boolean): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const m = re.exec(await readFile(file, 'utf8').catch(() => ''));
    if (m) return m;
    if (exited()) throw new Error(`the Windows listener exited before it listened`);
    if (Date.now() > deadline) throw new Error(`the Windows listener did not listen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already empty.
  }
}

/** Run the Linux controller in A against the Windows build listening in B; resolves with the controller's result. */
export async function longhaulAtoWineB(link: WanLink, opts: LonghaulRunOptions): Promise<LonghaulResult> {
  const dir = await mkdtemp(join(tmpdir(), 'longhaul-wan-wine-'));
  const trust = join(dir, 'trust');
  const [outFile, errFile] = [join(dir, 'listen.out'), join(dir, 'listen.err')];
  await stopWine();
  const out = openSync(outFile, 'w');
  const err = openSync(errFile, 'w');
  // detached: a process group of its own; Wine re-parents the Windows children to init but they stay in it.
  const runs = listensForRuns(opts);
  const listener = link.spawnInB('wine', [nodeExePath(), LONGHAUL_BIN, 'listen', '--port', '0', ...runs.once, '--no-advertise'], {
    cwd: PROJECT_DIR,
    stdio: ['ignore', out, err],
    env: windowsChildEnv({ LONGHAUL_TRUST_DIR: toWindowsPath(trust) }),
    detached: true,
  });
  closeSync(out);
  closeSync(err);
  let exited = false;
  const listenerDone = new Promise<void>((resolve) =>
    listener.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const printed = async (): Promise<string> => `${await readFile(outFile, 'utf8').catch(() => '')}\n${await readFile(errFile, 'utf8').catch(() => '')}`;
  try {
    const port = (
      await waitForFile(outFile, /listening on \S+:(\d+)/, WINE_LISTEN_MS, () => exited).catch(async (e: Error) => {
        throw new Error(`${e.message}:\n${await printed()}`);
      })
    )[1]!;
    if (opts.onListener && listener.pid !== undefined) await opts.onListener(listener.pid);
    const jsonFile = join(dir, 'result.json');
    const rttMs = 2 * link.config.oneWayDelayMs;
    // Handshake and result exchange take a few RTTs, and the Windows end starts its data workers under Wine.
    const boundMs = opts.seconds * 1000 + 20 * rttMs + 60_000 + runs.extraMs;
    await link.execInA(
      'env',
      [
        `LONGHAUL_TRUST_DIR=${trust}`,
        process.execPath,
        LONGHAUL_BIN,
        'run',
        `${link.bAddr}:${port}`,
        '-t',
        String(opts.seconds),
        '--json',
        jsonFile,
        ...(opts.flags ?? []),
      ],
      boundMs,
    );
    if (!runs.once.length) return JSON.parse(await readFile(jsonFile, 'utf8')) as LonghaulResult; // killed below
    await within(listenerDone, 20_000, 'the Windows `longhaul listen --once` after the run').catch(async (e: Error) => {
      throw new Error(`${e.message}:\n${await printed()}`);
    });
    return JSON.parse(await readFile(jsonFile, 'utf8')) as LonghaulResult;
  } finally {
    killGroup(listener.pid);
    await stopWine();
    await rm(dir, { recursive: true, force: true });
  }
}
