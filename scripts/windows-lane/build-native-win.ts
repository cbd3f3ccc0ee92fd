/**
 * Cross-builds the socket addon for win32-x64 with mingw-w64 into
 * native/prebuilds/win32-x64/node.napi.node, the file node-gyp-build loads on Windows.
 * `npm run build:native:win`; part of scripts/windows-lane/setup.sh.
 *
 * - Sources, defines and node-addon-api's settings come from native/binding.gyp
 *   (gyp-target.ts), plus native/src/win_delay_load.cc, which only this build compiles.
 * - Node-API headers: the platform-independent ones Node ships in /usr/include/node.
 * - -DNTDDI_VERSION=0x0A000003 (Windows 10 1703): mingw-w64's mstcpip.h declares
 *   SIO_TCP_INFO and TCP_INFO_v0 only from there (mingw's default is older). It
 *   selects declarations, not a minimum Windows (tcp_info_win.cc declares v1 itself).
 * - Linked -static: the C++ runtime and winpthread go inside the .node, which then
 *   needs only system DLLs (checked after the link).
 * Intermediate files go to native/build-win/ (gitignored), not native/build/, which every
 * node-gyp rebuild deletes; the lane's tests link controls from them.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGypTarget } from './gyp-target.js';
import { MINGW, nodeExePath, PROJECT_DIR, WIN_ADDON } from './lane.js';
import { makeNodeApiImportLibs } from './node-api-imports.js';
import { checkTools, checkWinDll, run } from './toolchain.js';
import { itemAt } from '../../electron/contract/present.js';

/** Sources only the mingw build compiles (MSVC links node-gyp's own delay-load hook). */
const LANE_SOURCES = ['native/src/win_delay_load.cc'];

/** Defines node-gyp adds to every addon, and the Windows SDK level (see above). */
const WIN_DEFINES = ['BUILDING_NODE_EXTENSION', 'NODE_GYP_MODULE_NAME=longhaul_native', 'NTDDI_VERSION=0x0A000003', '_WIN32_WINNT=0x0A00'];

/** The folder of node_api.h: npm_config_nodedir's, else Debian's. */
export function nodeApiIncludeDir(env: NodeJS.ProcessEnv = process.env): string | null {
  for (const base of [env.npm_config_nodedir, '/usr'].filter(Boolean) as string[]) {
    const dir = path.join(base, 'include', 'node');
    if (existsSync(path.join(dir, 'node_api.h'))) return dir;
  }
  return null;
}

interface WinBuild {
  out: string;
  sources: string[];
  /** Sources compiled in this run. */
  compiled: number;
  /** False when the addon was already up to date. */
  linked: boolean;
  seconds: number;
  workDir: string;
}

/** Runs `jobs` at a time; rejects with every failure's message. */
async function pool<T>(items: T[], jobs: number, work: (item: T) => Promise<void>): Promise<void> {
  const errors: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = itemAt(items, next++);
      await work(item).catch((e: Error) => errors.push(e.message));
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  if (errors.length) throw new Error(errors.join('\n'));
}

const mtime = (f: string): number => (existsSync(f) ? statSync(f).mtimeMs : 0);
const newest = (files: string[]): number => Math.max(0, ...files.map(mtime));

/** Header files (*.h) directly in `dirs`. */
function headers(dirs: string[]): string[] {
  return dirs.flatMap((d) =>
    existsSync(d)
      ? readdirSync(d)
          .filter((f) => f.endsWith('.h'))
          .map((f) => path.join(d, f))
      : [],
  );
}

/**
 * Indexes of the sources to compile: all when the command line changed since the last
 * successful compile (flags.json, written by the caller once it succeeded), else those
 * whose object is older than the source or than any header of `headerDirs` (coarse,
 * as the addon has a handful of headers: a header edit recompiles everything).
 */
function staleObjects(stamp: string, key: string, sources: string[], objects: string[], headerDirs: string[]): number[] {
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== key) {
    for (const o of objects) rmSync(o, { force: true });
    return sources.map((_, i) => i);
  }
  const headerTime = newest(headers(headerDirs));
  return sources.map((_, i) => i).filter((i) => mtime(itemAt(objects, i, 'object')) < Math.max(mtime(itemAt(sources, i, 'source')), headerTime));
}

/** Builds the addon. Throws with a message that says what is missing or what failed. */
async function buildNativeWin(projectDir = PROJECT_DIR, nodeExe = nodeExePath()): Promise<WinBuild> {
  const started = performance.now();
  checkTools();
  if (!existsSync(nodeExe)) throw new Error(`the Windows node.exe is not in the lane's cache (${nodeExe}); run scripts/windows-lane/setup.sh`);
  const include = nodeApiIncludeDir();
  if (!include) throw new Error("the Node-API headers (node_api.h) are missing: install Debian's nodejs headers (/usr/include/node) or set npm_config_nodedir");

  const target = readGypTarget(path.join(projectDir, 'native', 'binding.gyp'), 'longhaul_native', 'win');
  const sources = [...target.sources, ...LANE_SOURCES.map((s) => path.join(projectDir, s))];
  const workDir = path.join(projectDir, 'native', 'build-win');
  const objDir = path.join(workDir, 'obj');
  mkdirSync(objDir, { recursive: true });

  const libs = makeNodeApiImportLibs(nodeExe, workDir);
  const defines = [...target.defines, ...WIN_DEFINES, `LH_NODE_API_DELAY_DESCRIPTOR=${libs.descriptor}`];
  const includeDirs = [include, ...target.includeDirs];
  const flags = ['-O2', ...target.cxxFlags, ...defines.map((d) => `-D${d}`), ...includeDirs.map((d) => `-I${d}`)];
  const objects = sources.map((s) => path.join(objDir, `${path.basename(s, path.extname(s))}.o`));
  const stamp = path.join(workDir, 'flags.json');
  const key = JSON.stringify([MINGW.cxx, ...flags]);
  const stale = staleObjects(stamp, key, sources, objects, [path.join(projectDir, 'native', 'src'), ...includeDirs]);
  // A translation unit takes 2-8 s; five minutes ends a hung compiler, not a slow one.
  await pool(stale, os.availableParallelism(), (i) => {
    const source = itemAt(sources, i, 'source');
    return run(MINGW.cxx, ['-c', ...flags, source, '-o', itemAt(objects, i, 'object')], 300_000, path.relative(projectDir, source));
  });
  writeFileSync(stamp, key);

  const out = path.join(projectDir, WIN_ADDON);
  mkdirSync(path.dirname(out), { recursive: true });
  const linked = path.join(workDir, 'longhaul_native.node');
  const upToDate = stale.length === 0 && existsSync(out) && newest([...objects, libs.delayLib]) <= mtime(out);
  if (upToDate) return { out, sources, compiled: 0, linked: false, seconds: (performance.now() - started) / 1000, workDir };
  await run(MINGW.cxx, ['-shared', '-static', '-s', '-o', linked, ...objects, libs.delayLib, ...target.libraries.map((l) => `-l${l}`)], 300_000, 'link').catch(
    (e: Error) => {
      const hint = /undefined reference to `(uv_|v8|node::)/.test(e.message)
        ? "\nThe addon may call Node-API only (napi_*): libuv, V8 and Node's C++ API are not linked (scripts/windows-lane/node-api-imports.ts)."
        : '';
      throw new Error(e.message + hint);
    },
  );
  checkWinDll(linked);
  // What a test needs to link the same objects differently (the control without the hook).
  const hookObject = objects[sources.indexOf(path.join(projectDir, itemAt(LANE_SOURCES, 0, 'lane source')))];
  writeFileSync(path.join(workDir, 'build.json'), JSON.stringify({ objects, hookObject, libs, libraries: target.libraries }, null, 2));
  copyFileSync(linked, `${out}.tmp`);
  renameSync(`${out}.tmp`, out);
  return { out, sources, compiled: stale.length, linked: true, seconds: (performance.now() - started) / 1000, workDir };
}

async function main(): Promise<void> {
  try {
    const b = await buildNativeWin();
    const what = b.linked ? `built (${b.compiled} of ${b.sources.length} sources compiled)` : 'up to date';
    console.log(`longhaul: Windows addon (win32-x64) ${what} in ${b.seconds.toFixed(1)} s: ${path.relative(PROJECT_DIR, b.out)}`);
  } catch (err) {
    console.error(`longhaul: Windows addon build failed:\n${(err as Error).message}`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) void main();
