/**
 * The makensis electron-builder runs in local-nsis.ts (ELECTRON_BUILDER_NSIS_DIR/makensis
 * is a shim that starts this file). It hands the script, unchanged, to the real
 * makensis ($LONGHAUL_MAKENSIS) and passes on its output and exit code, so the build
 * succeeds or fails exactly as with that makensis alone.
 *
 * When that makensis stops for want of a plugin, this also lists every plugin
 * function the installer needs and does not find (nsis-plugins.ts), for both of
 * electron-builder's makensis passes, into $LONGHAUL_MAKENSIS_PROBE_DIR/probe.json:
 *   uninstaller  the first pass (-DBUILD_UNINSTALLER): an installer whose only job,
 *                run under Wine, is to write the uninstaller
 *   installer    the second pass, the installer that ships. It never runs when the
 *                first fails, so it is probed from the first pass's arguments made the
 *                way NsisTarget makes them: BUILD_UNINSTALLER removed, and
 *                UNINSTALLER_OUT_FILE (an exe the first pass would have written under
 *                Wine) a placeholder file, since that pass embeds it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { probeMissingPlugins, type PluginProbe } from './nsis-plugins.js';

const UNINSTALLER_DEFINE = '-DBUILD_UNINSTALLER';
const OUT_FILE_DEFINE = '-DUNINSTALLER_OUT_FILE=';

/** What probe.json holds. */
export interface ProbeRecord {
  uninstaller: PluginProbe | null;
  installer: PluginProbe | null;
  /** The installer pass was probed from the first pass's arguments (see above). */
  installerPassDerived: boolean;
}

function probeBothPasses(makensis: string, args: string[], script: Buffer, dir: string): ProbeRecord {
  const first = args.includes(UNINSTALLER_DEFINE);
  const record: ProbeRecord = { uninstaller: null, installer: null, installerPassDerived: first };
  if (!first) {
    record.installer = probeMissingPlugins(makensis, args, script, path.join(dir, 'installer'));
    return record;
  }
  record.uninstaller = probeMissingPlugins(makensis, args, script, path.join(dir, 'uninstaller'));
  const placeholder = path.join(dir, 'uninstaller-placeholder.exe');
  writeFileSync(placeholder, 'placeholder for the uninstaller the first pass writes under Wine\n');
  const installerArgs = args.filter((a) => a !== UNINSTALLER_DEFINE).map((a) => (a.startsWith(OUT_FILE_DEFINE) ? `${OUT_FILE_DEFINE}${placeholder}` : a));
  record.installer = probeMissingPlugins(makensis, installerArgs, script, path.join(dir, 'installer'));
  return record;
}

function main(): void {
  const makensis = process.env.LONGHAUL_MAKENSIS ?? 'makensis';
  const probeDir = process.env.LONGHAUL_MAKENSIS_PROBE_DIR;
  const args = process.argv.slice(2);
  const script = readFileSync(0);
  const real = spawnSync(makensis, args, { input: script, maxBuffer: 64 * 1024 * 1024 });
  process.stdout.write(real.stdout);
  process.stderr.write(real.stderr);
  const output = `${real.stdout.toString()}\n${real.stderr.toString()}`;
  if (real.status !== 0 && probeDir && args.at(-1) === '-' && /Plugin (function )?not found/.test(output)) {
    mkdirSync(probeDir, { recursive: true });
    // What it was given, to reproduce by hand: makensis $(cat args) - < script.nsi, from electron-builder's templates folder.
    writeFileSync(path.join(probeDir, 'script.nsi'), script);
    writeFileSync(path.join(probeDir, 'args.json'), JSON.stringify({ cwd: process.cwd(), args }, null, 2));
    writeFileSync(path.join(probeDir, 'probe.json'), JSON.stringify(probeBothPasses(makensis, args, script, probeDir), null, 2));
  }
  process.exitCode = real.status ?? 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
