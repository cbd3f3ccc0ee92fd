/**
 * `npm run dist` (this OS) and `npm run dist:win` (Windows): every packaging
 * step in order, each one checked before the next, then electron-builder.
 *
 *   1. electron-builder's schema and package.json checks (no network)
 *   2. the built app (npm run build) against electron-builder.yml "files"
 *   3. icons from build/icon.svg
 *   4. the native addon's N-API prebuilds for this OS's target arches
 *   5. electron-builder: downloads Electron and installer tools, then packages
 *
 * Where step 5 cannot download, the message says exactly that, and which
 * steps did succeed (download-failure.ts). Exit codes: 0 packaged,
 * 1 a step failed, 3 stopped at the download step.
 *
 * Usage: node dist/scripts/packaging/dist.js [--win|--mac|--linux] [--skip-prebuild] [--check] [--out DIR]
 * `--check` stops after step 4: everything that needs no download.
 * `--out DIR` writes installers there instead of electron-builder.yml's `directories.output`.
 * `--dir` builds the unpacked app only (electron-builder's "dir" target): no installer tools needed.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builderVersion, loadBuilderConfig, validateBuilderConfig, type BuilderConfig } from './builder-api.js';
import { classifyDownloadFailure, downloadFailureMessage } from './download-failure.js';
import { makeIcons } from './make-icons.js';
import { buildTargets, checkPackageContents, contentsProblems } from './package-contents.js';
import { prebuildNative, prebuildPath } from './prebuild-native.js';

/** Exit code when packaging stopped because something could not be downloaded. */
export const EXIT_DOWNLOAD = 3;

type OsKey = 'win' | 'mac' | 'linux';
const HOST_KEY: Partial<Record<NodeJS.Platform, OsKey>> = { win32: 'win', darwin: 'mac', linux: 'linux' };
const PLATFORM_OF: Record<OsKey, NodeJS.Platform> = { win: 'win32', mac: 'darwin', linux: 'linux' };

/** The Electron version to package: the installed one, else the one package-lock.json pins. */
export function electronVersionFor(projectDir: string): { version: string; installed: boolean } {
  const installed = path.join(projectDir, 'node_modules', 'electron', 'package.json');
  if (existsSync(installed)) return { version: (JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version, installed: true };
  const lock = JSON.parse(readFileSync(path.join(projectDir, 'package-lock.json'), 'utf8')) as { packages?: Record<string, { version?: string }> };
  const version = lock.packages?.['node_modules/electron']?.version;
  if (!version) throw new Error('no Electron version: node_modules/electron is missing and package-lock.json pins none');
  return { version, installed: false };
}

function step(done: string[], text: string): void {
  done.push(text);
  console.log(`longhaul dist: ✓ ${text}`);
}

function stop(message: string, code = 1): never {
  console.error(`longhaul dist: ${message}`);
  process.exit(code);
}

async function runBuilder(projectDir: string, os: OsKey, config: BuilderConfig, electronVersion: string, dirOnly: boolean): Promise<void> {
  const builder = await import('electron-builder');
  const platform = { win: builder.Platform.WINDOWS, mac: builder.Platform.MAC, linux: builder.Platform.LINUX }[os];
  await builder.build({
    projectDir,
    targets: platform.createTarget(dirOnly ? 'dir' : undefined),
    publish: 'never',
    config: { ...(config as object), electronVersion } as never,
  });
}

async function main(): Promise<void> {
  const projectDir = path.resolve(fileURLToPath(new URL('../../../', import.meta.url)));
  const os = (['win', 'mac', 'linux'] as OsKey[]).find((k) => process.argv.includes(`--${k}`)) ?? HOST_KEY[process.platform];
  if (!os) stop(`no installer format is configured for ${process.platform}`);
  const done: string[] = [];

  const config = await loadBuilderConfig(projectDir);
  const outAt = process.argv.indexOf('--out');
  const outArg = outAt > 0 ? process.argv[outAt + 1] : undefined;
  if (outArg) config.directories = { ...config.directories, output: path.resolve(outArg) };
  try {
    await validateBuilderConfig(projectDir, config);
  } catch (err) {
    stop(`electron-builder.yml is not valid:\n${(err as Error).message}`);
  }
  step(done, `electron-builder.yml passes electron-builder ${builderVersion()}'s schema and package.json checks`);

  const problems = contentsProblems(checkPackageContents(projectDir, config));
  if (problems.length > 0) stop(`the package would be incomplete:\n  ${problems.join('\n  ')}`);
  step(done, 'main, preload, renderer and data worker are built and every file they load is selected by "files"');

  makeIcons(path.join(projectDir, 'build', 'icon.svg'), path.join(projectDir, 'build'));
  step(done, 'icons generated from build/icon.svg (PNG, ICO, ICNS)');

  const arches = buildTargets(config)
    .filter((t) => t.platform === PLATFORM_OF[os])
    .map((t) => t.arch);
  if (process.argv.includes('--skip-prebuild')) {
    const absent = arches.map((a) => prebuildPath(PLATFORM_OF[os], a)).filter((p) => !existsSync(path.join(projectDir, p)));
    if (absent.length > 0) console.warn(`longhaul dist: ! native prebuilds missing (the app would run without the addon): ${absent.join(', ')}`);
  } else if (PLATFORM_OF[os] !== process.platform) {
    const names = arches.map((a) => `${PLATFORM_OF[os]}-${a}`).join(', ');
    console.warn(
      `longhaul dist: ! the native addon for ${names} can only be compiled on ${PLATFORM_OF[os]} (the release workflow does); without it the packaged app runs on the OS default window`,
    );
  } else {
    try {
      prebuildNative(projectDir, arches);
    } catch (err) {
      stop(`native addon: ${(err as Error).message}`);
    }
    step(done, `native addon prebuilt (N-API) for ${arches.map((a) => `${process.platform}-${a}`).join(', ')}`);
  }

  if (process.argv.includes('--check')) {
    console.log('longhaul dist: --check: stopping before electron-builder downloads anything');
    return;
  }
  const electron = electronVersionFor(projectDir);
  try {
    await runBuilder(projectDir, os, config, electron.version, process.argv.includes('--dir'));
  } catch (err) {
    const failure = classifyDownloadFailure(err);
    if (failure) stop(downloadFailureMessage(failure, done).replace(/^longhaul dist: /, ''), EXIT_DOWNLOAD);
    throw err;
  }
  console.log(`longhaul dist: ${process.argv.includes('--dir') ? 'unpacked app' : 'installers'} written to ${config.directories?.output ?? 'release'}/`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err: unknown) => stop(`packaging failed: ${(err as Error).stack ?? String(err)}`));
}
