/**
 * This PC's TCP settings, as far as Longhaul can read them without running
 * anything: on Linux the /proc/sys/net files the advice names. Nothing is read
 * elsewhere (macOS would need `sysctl`, Windows `netsh`): those stay unknown.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The sysctls the Linux advice names. */
export const LINUX_KEYS = ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem', 'net.core.rmem_max', 'net.core.wmem_max', 'net.ipv4.tcp_window_scaling'] as const;

/** Setting name → value as read (whitespace collapsed); a key that could not be read is absent. */
export type LocalSettings = Record<string, string>;

/** Read this PC's settings. `procRoot` is for tests. Never throws. */
export function readLocalSettings(platform: string = os.platform(), procRoot = '/proc/sys'): LocalSettings {
  const out: LocalSettings = {};
  if (platform !== 'linux') return out;
  for (const key of LINUX_KEYS) {
    try {
      out[key] = readFileSync(`${procRoot}/${key.replace(/\./g, '/')}`, 'utf8').trim().replace(/\s+/g, ' ');
    } catch {
      // Not readable here (a container without /proc/sys/net, a kernel without the knob): unknown.
    }
  }
  return out;
}
