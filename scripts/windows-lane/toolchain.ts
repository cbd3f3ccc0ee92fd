/**
 * The mingw-w64 tools the Windows build runs: a check that they are installed
 * (with the apt command that installs them), a bounded runner, and a check of
 * the DLL the link produced.
 */
import { spawn, spawnSync } from 'node:child_process';
import { MINGW } from './lane.js';

/** Throws, naming the Debian packages, when a cross tool is missing. */
export function checkTools(): void {
  const missing = Object.values(MINGW).filter((cmd) => spawnSync(cmd, ['--version'], { stdio: 'ignore', timeout: 30_000 }).error);
  if (missing.length) {
    throw new Error(
      `the mingw-w64 cross toolchain is missing (${missing.join(', ')} not found).\n` +
        'Install it with: apt-get install g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64\n' +
        '(or run scripts/windows-lane/setup.sh as root, which installs the whole lane).',
    );
  }
}

/** Runs a tool, its output shown only when it fails or warns; rejects after `timeoutMs`. */
export function run(cmd: string, args: string[], timeoutMs: number, label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${label}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) {
        if (output.trim()) process.stderr.write(output);
        resolve();
      } else {
        reject(
          new Error(`${label}: ${cmd} ${signal === 'SIGKILL' ? `killed after ${timeoutMs / 1000} s` : `exited with ${code ?? signal}`}\n${output.trim()}`),
        );
      }
    });
  });
}

/** The DLLs a PE file imports (its regular import table), from `objdump -p`. */
export function importedDlls(objdumpText: string): string[] {
  return [...objdumpText.matchAll(/^\s*DLL Name: (\S+)\s*$/gm)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}

/**
 * Throws unless `file` is a DLL that exports the N-API entry point and imports no
 * DLL Windows lacks: no MinGW runtime (libstdc++-6, libgcc_s, libwinpthread-1, left
 * out by -static) and no node.exe by name (which only the delay-load path may reach).
 */
export function checkWinDll(file: string): void {
  const r = spawnSync(MINGW.objdump, ['-p', file], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`objdump -p ${file}: ${r.stderr}`);
  const bad = importedDlls(r.stdout).filter((d) => /^lib.*\.dll$/i.test(d) || /^node\.exe$/i.test(d));
  if (bad.length) throw new Error(`${file} imports ${bad.join(', ')}, which a Windows PC does not have beside Longhaul`);
  if (!/\bnapi_register_module_v1\b/.test(r.stdout)) throw new Error(`${file} does not export napi_register_module_v1`);
}
