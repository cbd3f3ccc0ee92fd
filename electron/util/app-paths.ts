/**
 * Where Longhaul keeps its files on this PC: one rule for the CLI, browser
 * mode and the desktop app (docs/windows.md says why each folder).
 *
 * | what | override | Windows | Linux, macOS |
 * | --- | --- | --- | --- |
 * | results (History) | `$LONGHAUL_DATA_DIR` | desktop app: `<userData>\results`; else `%LOCALAPPDATA%\Longhaul\results` | desktop app: `<userData>/results`; else `$XDG_DATA_HOME/longhaul/results` (`~/.local/share/…`) |
 * | trust (identity key, peers) | `$LONGHAUL_TRUST_DIR` | `%LOCALAPPDATA%\Longhaul\trust` | `$XDG_DATA_HOME/longhaul/trust` |
 *
 * The trust folder is the same for every host on a PC (pair in the app, run
 * from the command line) and never under Electron's `userData`, which on
 * Windows is `%APPDATA%`: the roaming profile, copied to every PC the user
 * logs on to. A private key must stay on the PC it identifies.
 *
 * Everything the rule reads comes in as a `HostPaths`, so a test on Linux can
 * ask what a Windows PC would get.
 */
import os from 'node:os';
import path from 'node:path';

/** What the folder rule depends on. `currentHost()` is this process. */
export interface HostPaths {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  homedir: string;
  /** Relative overrides (`LONGHAUL_DATA_DIR=results`) are taken from here. */
  cwd: string;
}

export function currentHost(): HostPaths {
  return { platform: process.platform, env: process.env, homedir: os.homedir(), cwd: process.cwd() };
}

/** Path rules of a platform: `path.win32` for Windows, `path.posix` elsewhere, whatever this process runs on. */
export function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/**
 * An environment variable; on Windows names are case-insensitive (`LocalAppData`
 * and `LOCALAPPDATA` are one variable), also in a plain copy of `process.env`.
 */
export function envValue(host: HostPaths, name: string): string | undefined {
  const exact = host.env[name];
  if (exact !== undefined || host.platform !== 'win32') return exact || undefined;
  const upper = name.toUpperCase();
  for (const [k, v] of Object.entries(host.env)) if (k.toUpperCase() === upper) return v || undefined;
  return undefined;
}

/** `%LOCALAPPDATA%\Longhaul` (Windows: per user, per PC, not roaming) or `$XDG_DATA_HOME/longhaul`. */
function appDataDir(host: HostPaths): string {
  const p = pathFor(host.platform);
  if (host.platform === 'win32') {
    const local = envValue(host, 'LOCALAPPDATA');
    return p.join(local && p.isAbsolute(local) ? local : p.join(host.homedir, 'AppData', 'Local'), 'Longhaul');
  }
  const xdg = envValue(host, 'XDG_DATA_HOME');
  return p.join(xdg && p.isAbsolute(xdg) ? xdg : p.join(host.homedir, '.local', 'share'), 'longhaul');
}

function override(host: HostPaths, name: string): string | null {
  const v = envValue(host, name);
  return v ? pathFor(host.platform).resolve(host.cwd, v) : null;
}

/** The folder holding result JSON files (History). The desktop app passes Electron's `userData` folder. */
export function resultsDir(host: HostPaths = currentHost(), electronUserData?: string): string {
  const p = pathFor(host.platform);
  return override(host, 'LONGHAUL_DATA_DIR') ?? (electronUserData ? p.join(electronUserData, 'results') : p.join(appDataDir(host), 'results'));
}

/** The folder holding this installation's identity and paired peers (security/load-trust.ts). */
export function trustDir(host: HostPaths = currentHost()): string {
  return override(host, 'LONGHAUL_TRUST_DIR') ?? pathFor(host.platform).join(appDataDir(host), 'trust');
}
