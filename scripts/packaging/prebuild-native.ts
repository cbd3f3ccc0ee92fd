/**
 * N-API prebuilds of the socket addon, one per platform-arch, in
 * native/prebuilds/<platform>-<arch>/ — the folder node-gyp-build searches
 * (electron/native/load-native.ts), inside Electron as under Node.
 *
 * The file is named `node.napi[.glibc].node` on purpose: node-gyp-build, when it
 * runs in Electron (or with ELECTRON_RUN_AS_NODE, as the data workers do),
 * accepts a `node`-tagged binary only when it is also tagged `napi`. prebuildify
 * would otherwise name it after the runtime alone (`node.glibc.node`), which
 * Electron rejects, and the app would silently run without the addon.
 *
 * Usage: npm run native:prebuilds -- [--arch x64,arm64]
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The prebuild's file name (what node-gyp-build parses as tags). */
export function prebuildFileName(platform: NodeJS.Platform): string {
  return platform === 'linux' ? 'node.napi.glibc.node' : 'node.napi.node';
}

/** Project-relative path of the prebuild for one platform-arch. */
export function prebuildPath(platform: NodeJS.Platform, arch: string): string {
  return `native/prebuilds/${platform}-${arch}/${prebuildFileName(platform)}`;
}

/** Builds the addon for each arch of this platform with prebuildify. Throws on failure. */
export function prebuildNative(projectDir: string, arches: string[]): string[] {
  const require = createRequire(import.meta.url);
  const bin = path.join(path.dirname(require.resolve('prebuildify/package.json')), 'bin.js');
  const nodedir = process.env.npm_config_nodedir || (existsSync('/usr/include/node/node_api.h') ? '/usr' : '');
  const built: string[] = [];
  for (const arch of arches) {
    // prebuildify adds a libc tag on every OS when asked; only Linux has more than one libc.
    const libcTag = process.platform === 'linux' ? ['--tag-libc'] : [];
    const args = [bin, '--napi', '--strip', ...libcTag, '--name', 'node.napi', '--arch', arch];
    const env = { ...process.env, ...(nodedir ? { npm_config_nodedir: nodedir } : {}) };
    const r = spawnSync(process.execPath, args, { cwd: path.join(projectDir, 'native'), stdio: 'inherit', env });
    if (r.status !== 0)
      throw new Error(`prebuildify for ${process.platform}-${arch} exited with ${r.status ?? r.signal} (is a C++ compiler for ${arch} installed?)`);
    const out = prebuildPath(process.platform, arch);
    if (!existsSync(path.join(projectDir, out))) throw new Error(`prebuildify finished but ${out} is missing`);
    built.push(out);
  }
  // prebuildify moves the compiled file out of native/build/Release; put this machine's copy
  // back so development runs and tests keep loading the addon `npm ci` had built there.
  const host = built.find((p) => p === prebuildPath(process.platform, process.arch));
  if (host) {
    mkdirSync(path.join(projectDir, 'native/build/Release'), { recursive: true });
    copyFileSync(path.join(projectDir, host), path.join(projectDir, 'native/build/Release/longhaul_native.node'));
  }
  return built;
}

function main(): void {
  const i = process.argv.indexOf('--arch');
  const archArg = i > 0 ? process.argv[i + 1] : undefined;
  const arches = archArg ? archArg.split(',') : [process.arch];
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  for (const p of prebuildNative(root, arches)) console.log(`longhaul: built ${p}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
