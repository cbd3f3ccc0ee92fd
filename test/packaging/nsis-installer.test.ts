/**
 * Longhaul's Windows NSIS installer, built here by electron-builder with Debian's
 * makensis and 7za and a stand-in Electron (scripts/packaging/local-nsis.ts), with
 * nothing downloaded. It does not build: electron-builder's NSIS templates call
 * plugins that Debian's nsis does not ship. This test pins down exactly that: the
 * app archive the installer would unpack is complete, makensis stops on a missing
 * plugin, and the plugins missing from each makensis pass are exactly these, with
 * nothing else in the way (both passes compile once stand-ins fill the gaps) but
 * the language-file warnings -WX makes fatal. docs/packaging.md says what it takes
 * to go further (the plugins, and wine32 to run the x86 installer under Wine).
 * When this test fails because the list changed, update the list and the doc.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EXIT_PLUGINS_MISSING, type LocalNsisReport } from '../../scripts/packaging/local-nsis.js';
import { callSite, gapsByDll, type PluginProbe } from '../../scripts/packaging/nsis-plugins.js';
import { prebuildPath } from '../../scripts/packaging/prebuild-native.js';
import { REPO } from '../helpers/processes.js';
import { tmpDir } from '../helpers/tmp.js';
import { requireNsisTools, skipWithoutNsisTools } from './nsis-tools.js';
import { childEnded } from '../helpers/child-exit.js';

const require = createRequire(import.meta.url);
const asar = createRequire(require.resolve('app-builder-lib'))('@electron/asar') as { listPackage(file: string, o?: object): string[] };

/** The plugin functions each pass needs and Debian's nsis 3.08 lacks (electron-builder 26.17, this electron-builder.yml). */
const MISSING: Record<'uninstaller' | 'installer', Record<string, string[]>> = {
  uninstaller: {
    'UAC.dll': ['_'],
    'StdUtils.dll': ['GetAllParameters', 'TestParameter'],
    'WinShell.dll': ['UninstAppUserModelId', 'UninstShortcut'],
  },
  installer: {
    'UAC.dll': ['_'],
    'StdUtils.dll': ['ExecShellAsUser', 'GetAllParameters', 'GetParentPath', 'TestParameter'],
    'Nsis7z.dll': ['Extract'],
    'WinShell.dll': ['SetLnkAUMI', 'UninstShortcut'],
  },
};
/** The template each plugin is first called from, per pass. */
const FIRST_CALLED_IN: Record<'uninstaller' | 'installer', Record<string, string>> = {
  uninstaller: { 'UAC.dll': 'assistedInstaller.nsh', 'StdUtils.dll': 'assistedInstaller.nsh', 'WinShell.dll': 'uninstaller.nsh' },
  installer: {
    'UAC.dll': 'assistedInstaller.nsh',
    'StdUtils.dll': 'assistedInstaller.nsh',
    'Nsis7z.dll': 'installSection.nsh',
    'WinShell.dll': 'installSection.nsh',
  },
};
/** Languages whose Debian NSIS 3.08 language file lacks electron-builder's MULTIUSER_* strings. */
const FALLBACK_LANGUAGES = ['Finnish', 'Hungarian', 'Korean', 'Thai', 'Turkish'];

function sortedGaps(probe: PluginProbe): Record<string, string[]> {
  return Object.fromEntries(
    gapsByDll(probe.gaps)
      .map((g) => [g.dll, [...g.functions].sort()])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

async function buildLocally(out: string): Promise<{ code: number | null; report: LocalNsisReport; log: string }> {
  const child = spawn(process.execPath, [path.join(REPO, 'dist/scripts/packaging/local-nsis.js'), '--out', out], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let log = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 200_000);
  const { code } = await childEnded(child);
  clearTimeout(timer);
  assert.ok(stdout.trim().startsWith('{'), `local-nsis.js printed no report (exit ${code}):\n${log.slice(-3000)}`);
  return { code, report: JSON.parse(stdout) as LocalNsisReport, log };
}

describe("the NSIS installer built with Debian's makensis", { skip: skipWithoutNsisTools, timeout: 240_000 }, () => {
  it('stops exactly for want of these plugins, with everything before makensis done and nothing downloaded', async (t) => {
    const tools = requireNsisTools();
    const dir = tmpDir(t);
    const { code, report } = await buildLocally(path.join(dir, 'out'));
    t.diagnostic(`local build: ${report.seconds.toFixed(1)} s`);

    assert.deepEqual(report.downloads, [], 'electron-builder tried to download');
    assert.equal(report.installer, null, "an installer was built: Debian's nsis has the plugins now; install it under Wine instead of this test");
    assert.equal(code, EXIT_PLUGINS_MISSING);
    assert.match(report.error ?? '', /Plugin not found, cannot call UAC::_/, "Debian's makensis names the first missing plugin");

    // The app archive electron-builder made for the installer: what it would install.
    assert.ok(report.appArchive && existsSync(report.appArchive), 'the app archive (app-64.7z) was made');
    const listing = spawnSync(tools.sevenZip, ['l', '-slt', report.appArchive], { encoding: 'utf8' }).stdout;
    const entries = new Set([...listing.matchAll(/^Path = (.+)$/gm)].map((m) => m[1]!.replace(/\\/g, '/')));
    for (const f of ['Longhaul.exe', 'resources/app.asar']) assert.ok(entries.has(f), `${f} in the app archive`);
    assert.ok(!entries.has('resources/elevate.exe'), 'no elevate.exe (packElevateHelper: false)');
    const prebuild = prebuildPath('win32', 'x64');
    assert.equal(
      entries.has(`resources/app.asar.unpacked/${prebuild}`),
      existsSync(path.join(REPO, prebuild)),
      `the win32-x64 addon is packaged exactly when ${prebuild} exists`,
    );
    spawnSync(tools.sevenZip, ['x', '-y', `-o${path.join(dir, 'app')}`, report.appArchive, 'resources/app.asar'], { encoding: 'utf8' });
    const inAsar = new Set(
      asar.listPackage(path.join(dir, 'app', 'resources', 'app.asar'), { isPack: false }).map((p) => p.split(path.sep).join('/').replace(/^\//, '')),
    );
    for (const f of ['bin/longhaul.js', 'dist/electron/cli/main.js', 'dist/electron/main.js', 'dist/electron/engine/data-plane/data-worker/index.js'])
      assert.ok(inAsar.has(f), `${f} in app.asar`);

    // Both makensis passes: exactly these plugins missing, and nothing else once stand-ins fill them.
    const plugins = report.plugins;
    assert.ok(plugins, 'the probe ran');
    for (const pass of ['uninstaller', 'installer'] as const) {
      const probe: PluginProbe | null = plugins[pass];
      assert.ok(probe, `${pass} pass probed`);
      assert.equal(probe.otherError, null, `${pass} pass: ${probe.otherError}`);
      assert.equal(probe.compilesWithStandIns, true, `${pass} pass compiles with every gap filled`);
      assert.deepEqual(sortedGaps(probe), MISSING[pass], `${pass} pass: missing plugin functions`);
      const firstSites: Record<string, string | undefined> = Object.fromEntries(
        gapsByDll(probe.gaps).map((g) => [g.dll, callSite(probe.gaps.find((x) => x.dll === g.dll)!)?.split(':')[0]]),
      );
      assert.deepEqual(firstSites, FIRST_CALLED_IN[pass], `${pass} pass: where each plugin is first called`);
      assert.equal(probe.warningsAreErrors, true, 'electron-builder passes -WX');
      const languages: Set<string> = new Set(
        probe.warnings.map((w) => /LangString "MULTIUSER_\w+" for language (\w+) is missing/.exec(w)?.[1] ?? `other: ${w}`),
      );
      assert.deepEqual([...languages].sort(), FALLBACK_LANGUAGES, `${pass} pass: the warnings -WX makes fatal`);
    }
    assert.equal(plugins.installerPassDerived, true);
  });
});
