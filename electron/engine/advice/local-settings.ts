/**
 * This PC's TCP settings, as far as Longhaul can read them: on Linux the
 * /proc/sys/net files the advice names; on macOS the sysctls it names
 * (`sysctl KEY…`); on Windows the receive-window autotuning level
 * (`netsh interface tcp show global`, English output only: other languages
 * stay unknown). The same reader serves this PC's advice and the values an
 * end sends its partner (engine/partner-settings.ts). Never throws: what
 * cannot be read is absent, and the advice says "unknown".
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The sysctls the Linux advice names. */
export const LINUX_KEYS = ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem', 'net.core.rmem_max', 'net.core.wmem_max', 'net.ipv4.tcp_window_scaling'] as const;
/** The sysctls the macOS advice names. */
export const MACOS_KEYS = ['kern.ipc.maxsockbuf', 'net.inet.tcp.autorcvbufmax', 'net.inet.tcp.autosndbufmax', 'net.inet.tcp.rfc1323'] as const;
/** The name the Windows autotuning level is kept under (a dotted name, as the results schema wants). */
export const WINDOWS_AUTOTUNING_KEY = 'netsh.tcp.autotuninglevel';

/** Setting name → value as read (whitespace collapsed); a key that could not be read is absent. */
export type LocalSettings = Record<string, string>;

/** Runs a command and returns its standard output; the default runs it for real, bounded to 3 s. */
export type RunCommand = (file: string, args: string[]) => string;

const run: RunCommand = (file, args) => execFileSync(file, args, { encoding: 'utf8', timeout: 3000, windowsHide: true, stdio: ['ignore', 'pipe', 'ignore'] });

/** `key: value` lines of `sysctl KEY…` (macOS), for the keys asked. */
export function parseSysctl(text: string, keys: readonly string[]): LocalSettings {
  const out: LocalSettings = {};
  for (const line of text.split('\n')) {
    const m = /^([\w.]+)\s*[:=]\s*(.+)$/.exec(line.trim());
    const [, key, value] = m ?? [];
    if (key && value && keys.includes(key)) out[key] = value.trim().replace(/\s+/g, ' ').slice(0, 200);
  }
  return out;
}

/** The autotuning level from `netsh interface tcp show global` (English Windows), or nothing. */
export function parseNetshGlobal(text: string): LocalSettings {
  const m = /Receive Window Auto-Tuning Level\s*:\s*([A-Za-z]+)/i.exec(text);
  const level = m?.[1];
  return level ? { [WINDOWS_AUTOTUNING_KEY]: level.toLowerCase() } : {};
}

function tryRun(cmd: RunCommand, file: string, args: string[]): string {
  try {
    return cmd(file, args);
  } catch {
    return ''; // Not there, not allowed, too slow: unknown.
  }
}

/** Read this PC's settings. `procRoot` and `cmd` are for tests. Never throws. */
export function readLocalSettings(platform: string = os.platform(), procRoot = '/proc/sys', cmd: RunCommand = run): LocalSettings {
  if (platform === 'darwin') return parseSysctl(tryRun(cmd, '/usr/sbin/sysctl', [...MACOS_KEYS]), MACOS_KEYS);
  if (platform === 'win32') return parseNetshGlobal(tryRun(cmd, 'netsh', ['interface', 'tcp', 'show', 'global']));
  const out: LocalSettings = {};
  if (platform !== 'linux') return out;
  for (const key of LINUX_KEYS) {
    try {
      out[key] = readFileSync(`${procRoot}/${key.replace(/\./g, '/')}`, 'utf8')
        .trim()
        .replace(/\s+/g, ' ');
    } catch {
      // Not readable here (a container without /proc/sys/net, a kernel without the knob): unknown.
    }
  }
  return out;
}
