/**
 * `longhaul doctor [--json]`: what this PC will use to move bytes and why (native/data-path.ts), its
 * TCP settings as the advice reads them, and the switches set. Nothing is sent anywhere.
 */
import os from 'node:os';
import type { Command } from 'commander';
import { LINUX_KEYS, MACOS_KEYS, WINDOWS_AUTOTUNING_KEY } from '../../analysis/advice/settings-keys.js';
import { readLocalSettings } from '../../engine/session/local-settings.js';
import { DATA_PATH_SWITCHES, dataPath } from '../../native/data-path.js';
import { formatDoctor, type DoctorFacts } from '../../report/data-path-report.js';
import { SOFTWARE_VERSION } from '../../util/version.js';
import { addExamples } from '../help-layout.js';

function settingKeys(platform: NodeJS.Platform): readonly string[] {
  return platform === 'linux' ? LINUX_KEYS : platform === 'darwin' ? MACOS_KEYS : platform === 'win32' ? [WINDOWS_AUTOTUNING_KEY] : [];
}

export function register(program: Command): void {
  const cmd = program
    .command('doctor')
    .summary('how this PC moves bytes and why: the byte loop, sockets, pacing, its TCP settings')
    .description("how this PC moves bytes and why (the addon's loops or Node's, who owns the sockets, pacing), and its TCP settings")
    .option('--json', 'the same as JSON');
  addExamples(cmd, ['longhaul doctor', 'LONGHAUL_DATA_PATH=node longhaul doctor']);
  cmd.action(async (flags: { json?: boolean }) => {
    const platform = process.platform;
    const switches: Record<string, string> = {};
    for (const name of DATA_PATH_SWITCHES) {
      const v = process.env[name];
      if (v !== undefined) switches[name] = v;
    }
    const facts: DoctorFacts = {
      path: dataPath(),
      version: SOFTWARE_VERSION,
      node: process.version,
      arch: os.arch(),
      settings: await readLocalSettings(platform),
      settingKeys: settingKeys(platform),
      switches,
      switchNames: DATA_PATH_SWITCHES,
    };
    process.stdout.write(flags.json ? JSON.stringify({ schema: 'longhaul.doctor/1', ...facts }, null, 2) + '\n' : formatDoctor(facts));
  });
}
