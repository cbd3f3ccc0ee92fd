/**
 * The NSIS installer on a real Windows (release.yml, after `npm run dist:win`):
 *   1. runs release/Longhaul-Setup-<version>-x64.exe /S: a per-user install, no admin
 *   2. checks the uninstall entry (HKCU\…\Uninstall, DisplayName "Longhaul <version>",
 *      read with `reg query`), the installed files (Longhaul.exe, resources\app.asar, the
 *      addon in app.asar.unpacked) and the Start-menu shortcut
 *   3. runs the installed app's CLI: Longhaul.exe with ELECTRON_RUN_AS_NODE=1 on
 *      resources\app.asar\bin\longhaul.js, `loopback -w 64K -t 3 --json`, and holds the
 *      result to check-smoke-result.ts
 *   4. runs the QuietUninstallString and waits (bounded) until the files and the entry are gone.
 * electron-builder's NSIS plugins cannot be had on the Linux build machines, so this
 * is where the installer itself is tested (docs/packaging.md).
 *
 * Usage (Windows): node dist/scripts/packaging/windows-install-check.js [--release DIR]
 * Exit code 1 with the list of what failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LonghaulResult } from '../../electron/contract/result.js';
import { describeEnds, smokeResultProblems } from './check-smoke-result.js';
import { prebuildPath } from './prebuild-native.js';

/** One registry key's values as `reg query` prints them: name → value text. */
type RegValues = Record<string, string>;

const UNINSTALL_KEY = 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall';

/** Parses `reg query KEY /s` output (Windows' reg.exe and Wine's print the same layout). */
export function parseRegQuery(text: string): Map<string, RegValues> {
  const keys = new Map<string, RegValues>();
  let current: RegValues | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (/^HKEY_/.test(line)) {
      current = {};
      keys.set(line.trim(), current);
      continue;
    }
    const m = /^ {4}(.+?) {4}(REG_\w+)(?: {4}(.*))?$/.exec(line);
    if (m?.[1] !== undefined && current) current[m[1]] = m[3] ?? '';
  }
  return keys;
}

/** The uninstall entry whose DisplayName starts with `productName` + space, or null. */
export function findUninstallEntry(keys: Map<string, RegValues>, productName: string): { key: string; values: RegValues } | null {
  for (const [key, values] of keys) if (values.DisplayName?.startsWith(`${productName} `)) return { key, values };
  return null;
}

/** A command line that starts with a quoted path (`"C:\…\Uninstall X.exe" /currentuser /S`), split. */
export function splitCommand(command: string): { exe: string; args: string[] } | null {
  const m = /^"([^"]+)"\s*(.*)$/.exec(command.trim());
  return m?.[1] !== undefined ? { exe: m[1], args: (m[2] ?? '').split(/\s+/).filter(Boolean) } : null;
}

function uninstallEntry(): { key: string; values: RegValues } | null {
  const r = spawnSync('reg', ['query', UNINSTALL_KEY, '/s'], { encoding: 'utf8', timeout: 30_000 });
  return findUninstallEntry(parseRegQuery(r.stdout ?? ''), 'Longhaul');
}

async function waitFor(what: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 1000))) if (what()) return true;
  return what();
}

function smokeFromInstalled(installDir: string, problems: string[]): void {
  const out = path.join(os.tmpdir(), `longhaul-installed-smoke-${process.pid}.json`);
  const cli = path.join(installDir, 'resources', 'app.asar', 'bin', 'longhaul.js');
  const r = spawnSync(path.join(installDir, 'Longhaul.exe'), [cli, 'loopback', '-w', '64K', '-t', '3', '--json', out], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  console.log(r.stdout);
  if (r.status !== 0 || !existsSync(out)) {
    problems.push(`the installed CLI exited ${r.status ?? r.signal}: ${(r.stderr ?? '').slice(-1500)}`);
    return;
  }
  const doc = JSON.parse(readFileSync(out, 'utf8')) as LonghaulResult;
  for (const line of describeEnds(doc)) console.log(`  ${line}`);
  problems.push(...smokeResultProblems(doc).map((p) => `installed CLI: ${p}`));
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--release');
  const release = path.resolve((at > 0 ? process.argv[at + 1] : undefined) ?? 'release');
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const setup = readdirSync(release).find((f) => new RegExp(`^Longhaul-Setup-.*-${arch}\\.exe$`).test(f));
  if (process.platform !== 'win32' || !setup) {
    console.error(`windows-install-check: needs Windows and release/Longhaul-Setup-*-${arch}.exe (${process.platform}, ${setup ?? 'no installer'})`);
    process.exit(2);
  }
  const problems: string[] = [];
  const step = (text: string): void => console.log(`windows-install-check: ${text}`);
  let started = Date.now();
  const install = spawnSync(path.join(release, setup), ['/S'], { timeout: 300_000 });
  step(`${setup} /S exited ${install.status ?? install.signal} after ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const entry = uninstallEntry();
  const uninstaller = entry ? splitCommand(entry.values.QuietUninstallString ?? '') : null;
  if (!entry || !uninstaller) {
    problems.push(`no uninstall entry with DisplayName "Longhaul …" and a QuietUninstallString under ${UNINSTALL_KEY}`);
  } else {
    step(`uninstall entry ${entry.key}: ${entry.values.DisplayName}, ${entry.values.QuietUninstallString}`);
    const installDir = path.dirname(uninstaller.exe);
    for (const f of ['Longhaul.exe', 'resources/app.asar', `resources/app.asar.unpacked/${prebuildPath('win32', arch)}`]) {
      if (!existsSync(path.join(installDir, f))) problems.push(`not installed: ${path.join(installDir, f)}`);
    }
    const startMenu = path.join(process.env.APPDATA ?? '', 'Microsoft', 'Windows', 'Start Menu', 'Programs', 'Longhaul.lnk');
    if (!existsSync(startMenu)) problems.push(`no Start-menu shortcut at ${startMenu}`);
    smokeFromInstalled(installDir, problems);

    started = Date.now();
    // The uninstaller copies itself to %TEMP% and returns at once: wait for its effects.
    spawnSync(uninstaller.exe, uninstaller.args, { timeout: 120_000 });
    const gone = await waitFor(() => !existsSync(path.join(installDir, 'Longhaul.exe')) && !existsSync(startMenu) && uninstallEntry() === null, 120_000);
    step(`uninstalled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (!gone)
      problems.push(
        `after uninstalling, still there: ${[existsSync(path.join(installDir, 'Longhaul.exe')) && 'Longhaul.exe', existsSync(startMenu) && 'the Start-menu shortcut', uninstallEntry() && 'the uninstall entry'].filter(Boolean).join(', ')}`,
      );
  }
  if (problems.length > 0) {
    console.error(`windows-install-check failed:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  step('installed, ran, uninstalled: all checks passed');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err: unknown) => {
    console.error(`windows-install-check: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  });
}
