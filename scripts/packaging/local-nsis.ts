/**
 * Longhaul's Windows NSIS installer, built by electron-builder with this
 * machine's tools instead of the ones it downloads (which cannot be fetched here):
 *
 *   what electron-builder downloads           what is used instead (how it is told)
 *   Electron's win32-x64 runtime              a stand-in folder with one Windows exe (config `electronDist`)
 *   the NSIS bundle (makensis, elevate.exe)   Debian's makensis (ELECTRON_BUILDER_NSIS_DIR, through
 *                                             a shim that runs makensis-probe.ts); no elevate.exe (`nsis.packElevateHelper: false`:
 *                                             only per-machine installs use it)
 *   the NSIS plugins (nsis-resources)         Debian's plugin folder, or --resources DIR (ELECTRON_BUILDER_NSIS_RESOURCES_DIR)
 *   7-Zip, for the app archive                Debian's 7za, p7zip-full (ELECTRON_BUILDER_7ZIP_PATH)
 *   winCodeSign (rcedit, signtool)            nothing: `win.signAndEditExecutable: false`
 *   Wine, to write the uninstaller            Debian's wine (USE_SYSTEM_WINE=true)
 *
 * Every other download is pointed at a 127.0.0.1 server that answers 404 and
 * records the request, so the report says if electron-builder tried one.
 * The report (JSON) says what was built; when makensis stops for want of a
 * plugin, it lists every plugin function each makensis pass needs and does not
 * find, with the template line that calls it (makensis-probe.ts).
 *
 * Usage: node dist/scripts/packaging/local-nsis.js --out DIR [--exe FILE] [--resources DIR]
 * Exit codes: 0 the installer was built, 1 the build failed, 4 it failed for want of plugins.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBuilderConfig } from './builder-api.js';
import { electronVersionFor } from './dist.js';
import { makeIcons } from './make-icons.js';
import type { ProbeRecord } from './makensis-probe.js';

/** Exit code when makensis stopped because plugins are missing. */
export const EXIT_PLUGINS_MISSING = 4;

/** This machine's replacements for electron-builder's downloads. */
export interface LocalTools {
  makensis: string;
  nsisDir: string;
  sevenZip: string;
}

/** What `buildWithLocalTools` did. */
export interface LocalNsisReport {
  installer: string | null;
  /** electron-builder's error when there is no installer (makensis's output included). */
  error: string | null;
  /** The app archive electron-builder made for the installer to unpack (null if it got no further). */
  appArchive: string | null;
  /** The plugin folder makensis was given (besides its own). */
  pluginsDir: string;
  /** When makensis stopped for want of plugins: every missing plugin function, per pass (makensis-probe.ts). */
  plugins: ProbeRecord | null;
  /** Downloads electron-builder attempted (paths asked of the local mirror): none expected. */
  downloads: string[];
  seconds: number;
}

function which(tool: string): string | null {
  const r = spawnSync('sh', ['-c', 'command -v "$1"', 'sh', tool], { encoding: 'utf8', timeout: 5_000 });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** makensis, its NSISDIR (for the plugin folder) and 7za; `missing` names the Debian packages to install. */
export function findLocalTools(): LocalTools | { missing: string[] } {
  const makensis = which('makensis');
  const sevenZip = which('7za') ?? which('7zz');
  const hdr = makensis ? spawnSync(makensis, ['-HDRINFO'], { encoding: 'utf8', timeout: 10_000 }).stdout : '';
  const nsisDir = /NSISDIR=([^,\s]+)/.exec(hdr)?.[1] ?? null;
  if (makensis && nsisDir && sevenZip) return { makensis, nsisDir, sevenZip };
  return { missing: [...(makensis && nsisDir ? [] : ['nsis (makensis)']), ...(sevenZip ? [] : ['p7zip-full (7za)'])] };
}

/** A Windows exe to stand in for Electron's: a small x64 console program that npm ships with electron-builder. */
function defaultStandInExe(): string {
  const require = createRequire(import.meta.url);
  const squirrel = require.resolve('electron-winstaller/package.json', {
    paths: [path.dirname(require.resolve('app-builder-lib/package.json', { paths: [path.dirname(require.resolve('electron-builder'))] }))],
  });
  return path.join(path.dirname(squirrel), 'vendor', '7z-x64.exe');
}

/** Records every request and answers 404: a download electron-builder attempts fails at once, on record. */
async function refusingMirror(): Promise<{ url: string; requests: string[]; close(): void }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests, close: () => server.close() };
}

/**
 * Builds the NSIS installer (x64) of the app in `projectDir` into `outDir` with `tools`.
 * electron-builder reads its tool overrides from process.env, so this sets them there
 * for good: run it in a process of its own (as `main` below does).
 */
async function buildWithLocalTools(
  projectDir: string,
  outDir: string,
  tools: LocalTools,
  opts: { exe?: string; resources?: string } = {},
): Promise<LocalNsisReport> {
  const started = Date.now();
  const work = path.join(outDir, 'local-tools');
  const probeDir = path.join(work, 'makensis-probe');
  const electronDist = path.join(work, 'electron-win32-x64');
  for (const d of [path.join(work, 'nsis'), path.join(work, 'nsis-resources'), path.join(electronDist, 'resources')]) mkdirSync(d, { recursive: true });
  copyFileSync(opts.exe ?? defaultStandInExe(), path.join(electronDist, 'electron.exe'));
  writeFileSync(path.join(electronDist, 'LICENSE'), 'stand-in for Electron\n');
  const shim = path.join(work, 'nsis', 'makensis');
  const probe = fileURLToPath(new URL('./makensis-probe.js', import.meta.url));
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${probe}" "$@"\n`, { mode: 0o755 });
  const resources = opts.resources ?? path.join(work, 'nsis-resources');
  if (!opts.resources) symlinkSync(path.join(tools.nsisDir, 'Plugins'), path.join(resources, 'plugins'));
  const icons = path.join(work, 'icons');
  mkdirSync(icons, { recursive: true });
  makeIcons(path.join(projectDir, 'build', 'icon.svg'), icons);

  const mirror = await refusingMirror();
  Object.assign(process.env, {
    ELECTRON_BUILDER_NSIS_DIR: path.dirname(shim),
    ELECTRON_BUILDER_NSIS_RESOURCES_DIR: resources,
    ELECTRON_BUILDER_7ZIP_PATH: tools.sevenZip,
    USE_SYSTEM_WINE: 'true',
    LONGHAUL_MAKENSIS: tools.makensis,
    LONGHAUL_MAKENSIS_PROBE_DIR: probeDir,
    ELECTRON_MIRROR: mirror.url,
    ELECTRON_BUILDER_BINARIES_MIRROR: mirror.url,
    ELECTRON_BUILDER_BINARIES_ALLOW_HTTP: 'true',
    ELECTRON_CACHE: path.join(work, 'electron-cache'),
    ELECTRON_BUILDER_CACHE: path.join(work, 'builder-cache'),
  });
  const config = await loadBuilderConfig(projectDir);
  const win = config.win as Record<string, unknown>;
  const nsis = config.nsis as Record<string, unknown>;
  let installer: string | null = null;
  let error: string | null = null;
  try {
    const builder = await import('electron-builder');
    const artifacts = await builder.build({
      projectDir,
      targets: builder.Platform.WINDOWS.createTarget('nsis', builder.Arch.x64),
      publish: 'never',
      config: {
        ...(config as object),
        electronVersion: electronVersionFor(projectDir).version,
        electronDist,
        directories: { ...config.directories, output: outDir },
        win: { ...win, icon: path.join(icons, 'icon.ico'), signAndEditExecutable: false },
        nsis: { ...nsis, packElevateHelper: false },
      } as never,
    });
    installer = artifacts.find((f) => /Setup.*\.exe$/.test(f)) ?? null;
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  } finally {
    mirror.close();
  }
  const probeFile = path.join(probeDir, 'probe.json');
  const archive = readdirSync(outDir).find((f) => /-x64\.nsis\.7z$/.test(f));
  return {
    installer,
    error,
    appArchive: archive ? path.join(outDir, archive) : null,
    pluginsDir: path.join(resources, 'plugins'),
    plugins: existsSync(probeFile) ? (JSON.parse(readFileSync(probeFile, 'utf8')) as ProbeRecord) : null,
    downloads: mirror.requests,
    seconds: (Date.now() - started) / 1000,
  };
}

async function main(): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const out = arg('--out');
  if (!out) {
    console.error('usage: local-nsis.js --out DIR [--exe FILE] [--resources DIR]');
    process.exit(2);
  }
  const tools = findLocalTools();
  if ('missing' in tools) {
    console.error(`local-nsis: missing ${tools.missing.join(', ')}`);
    process.exit(1);
  }
  const projectDir = fileURLToPath(new URL('../../../', import.meta.url));
  const report = await buildWithLocalTools(projectDir, path.resolve(out), tools, { exe: arg('--exe'), resources: arg('--resources') });
  console.log(JSON.stringify(report, null, 2));
  process.exit(report.installer ? 0 : report.plugins ? EXIT_PLUGINS_MISSING : 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err: unknown) => {
    console.error(`local-nsis: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  });
}
