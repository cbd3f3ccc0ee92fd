/**
 * This PC's TCP settings, as far as Longhaul can read them: on Linux the
 * /proc/sys/net files the advice names; on macOS the sysctls it names
 * (`sysctl KEY…`); on Windows the receive-window autotuning level
 * (`netsh interface tcp show global`, English output only: other languages
 * stay unknown). The same reader serves this PC's advice and the values an
 * end sends its partner (engine/session/partner-settings.ts). Never throws: what
 * cannot be read is absent, and the advice says "unknown".
 *
 * Asynchronous: `netsh` can take seconds on Windows, and the engine runs in
 * the desktop app's main process, where a synchronous read froze the window
 * and the control channel's timers at the end of every run. Each run starts
 * a read when it starts (`LocalSettingsRead`) and uses what it got by its end.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';

import { LINUX_KEYS, MACOS_KEYS, WINDOWS_AUTOTUNING_KEY, type LocalSettings } from '../../analysis/advice/settings-keys.js';

export { WINDOWS_AUTOTUNING_KEY, type LocalSettings };

/** Runs a command and resolves with its standard output; the default runs it for real, bounded to 3 s. */
type RunCommand = (file: string, args: string[]) => Promise<string>;

const run: RunCommand = (file, args) =>
  new Promise((resolve, reject) => {
    const child = execFile(file, args, { encoding: 'utf8', timeout: 3000, windowsHide: true }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    child.stdin?.end();
  });

/** `key: value` lines of `sysctl KEY…` (macOS), for the keys asked. */
function parseSysctl(text: string, keys: readonly string[]): LocalSettings {
  const out: LocalSettings = {};
  for (const line of text.split('\n')) {
    const m = /^([\w.]+)\s*[:=]\s*(.+)$/.exec(line.trim());
    const [, key, value] = m ?? [];
    if (key && value && keys.includes(key)) out[key] = value.trim().replace(/\s+/g, ' ').slice(0, 200);
  }
  return out;
}

/** The autotuning level from `netsh interface tcp show global` (English Windows), or nothing. */
function parseNetshGlobal(text: string): LocalSettings {
  const m = /Receive Window Auto-Tuning Level\s*:\s*([A-Za-z]+)/i.exec(text);
  const level = m?.[1];
  return level ? { [WINDOWS_AUTOTUNING_KEY]: level.toLowerCase() } : {};
}

async function tryRun(cmd: RunCommand, file: string, args: string[]): Promise<string> {
  try {
    return await cmd(file, args);
  } catch {
    return ''; // Not there, not allowed, too slow: unknown.
  }
}

/** Read this PC's settings. `procRoot` and `cmd` are for tests. Never rejects. */
export async function readLocalSettings(platform: string = os.platform(), procRoot = '/proc/sys', cmd: RunCommand = run): Promise<LocalSettings> {
  if (platform === 'darwin') return parseSysctl(await tryRun(cmd, '/usr/sbin/sysctl', [...MACOS_KEYS]), MACOS_KEYS);
  if (platform === 'win32') return parseNetshGlobal(await tryRun(cmd, 'netsh', ['interface', 'tcp', 'show', 'global']));
  const out: LocalSettings = {};
  if (platform !== 'linux') return out;
  for (const key of LINUX_KEYS) {
    try {
      out[key] = (await readFile(`${procRoot}/${key.replace(/\./g, '/')}`, 'utf8')).trim().replace(/\s+/g, ' ');
    } catch {
      // Not readable here (a container without /proc/sys/net, a kernel without the knob): unknown.
    }
  }
  return out;
}

/**
 * One run's read of this PC's settings, started with the run: `value` is
 * null until it is done (a run shorter than `netsh`: its advice and its
 * partner then say "unknown"), `done` resolves with it.
 */
export class LocalSettingsRead {
  value: LocalSettings | null = null;
  readonly done: Promise<LocalSettings>;

  constructor(read: () => Promise<LocalSettings> = () => readLocalSettings()) {
    this.done = read()
      .catch(() => ({}))
      .then((v) => (this.value = v));
  }
}
