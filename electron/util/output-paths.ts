/**
 * Checks on the file names a user gives (`--json`, `--log`, `--csv`, `--out`)
 * before anything is created. Paths go to the file system exactly as typed:
 * nothing here splits, quotes or rebuilds them; the checks only look.
 *
 * Windows accepts names that do not do what they say: `run 10:42.json`
 * writes into a hidden stream of a file called `run 10`, `aux.csv` is a
 * device, `results.` loses its dot, and in cmd.exe `"C:\My Results\"` arrives
 * as `C:\My Results"` (a backslash before a quote escapes it). Those are
 * refused, naming the flag and the path as typed. Two flags naming one file
 * (on Windows also in another case or with other slashes) are refused too.
 * Every rule takes the platform as a parameter, so it is tested on Linux.
 */
import path from 'node:path';
import { pathFor, type HostPaths } from './app-paths.js';
import { ArgumentError } from './errors.js';

interface OutputFile {
  /** The flag as the user knows it, e.g. `--csv`. */
  flag: string;
  /** As typed; undefined when the flag was not given. */
  path: string | undefined;
}

const DEVICES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

function describeChar(c: string): string {
  return c.charCodeAt(0) < 0x20 ? `a control character (code ${c.charCodeAt(0)})` : `"${c}"`;
}

/** Why Windows would not create the file `p` names as typed, or null. Pure: `path.win32` rules on any OS. */
export function windowsNameProblem(p: string): string | null {
  // \\?\C:\… and \\.\… ask Windows to take the name literally: the user knows what they want.
  if (/^[\\/]{2}[?.][\\/]/.test(p)) return null;
  if (p.includes('"')) {
    return 'it contains a double quote: in cmd.exe a backslash right before a closing quote escapes it, so "C:\\My Results\\" arrives as C:\\My Results" (leave out the last backslash)';
  }
  const rest = p.slice(path.win32.parse(p).root.length);
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  const bad = /[<>|?*\x00-\x1f]/.exec(rest);
  if (bad) return `it contains ${describeChar(bad[0])}, which Windows does not allow in a file name`;
  if (rest.includes(':')) {
    return 'it has a colon after the drive: Windows would write into a hidden stream of another file (an NTFS alternate data stream); use - instead';
  }
  const parts = rest.split(/[\\/]/).filter((s) => s !== '' && s !== '.' && s !== '..');
  for (const part of parts) {
    if (/[. ]$/.test(part)) return `"${part}" ends with a dot or a space, which Windows drops: the file would get another name`;
    const stem = (part.split('.')[0] ?? '').trimEnd(); // split always gives at least one piece
    // A bare device name (NUL) is taken as meant, like /dev/null; with an extension it is a trap (aux.csv opens AUX).
    if (DEVICES.test(stem) && part !== stem) return `"${part}" is the device ${stem.toUpperCase()} on Windows, not a file; choose another name`;
  }
  return null;
}

/** Whether two paths name the same file: resolved against `cwd`; on Windows case and slashes do not matter. */
export function sameFile(a: string, b: string, host: Pick<HostPaths, 'platform' | 'cwd'>): boolean {
  const p = pathFor(host.platform);
  const ra = p.resolve(host.cwd, a);
  const rb = p.resolve(host.cwd, b);
  return host.platform === 'win32' ? ra.toLowerCase() === rb.toLowerCase() : ra === rb;
}

/**
 * Refuse, before anything is created, output paths that are empty, that
 * Windows would turn into something else, or that two flags share.
 * Throws ArgumentError (exit 2) naming the flag and the path as typed.
 */
export function checkOutputFiles(
  files: readonly OutputFile[],
  host: Pick<HostPaths, 'platform' | 'cwd'> = { platform: process.platform, cwd: process.cwd() },
): void {
  const given = files.filter((f): f is { flag: string; path: string } => f.path !== undefined);
  for (const f of given) {
    if (f.path.trim() === '') throw new ArgumentError(`${f.flag} needs a file name`, f.flag);
    const why = host.platform === 'win32' ? windowsNameProblem(f.path) : null;
    if (why) throw new ArgumentError(`${f.flag} ${f.path}: ${why}`, f.flag);
  }
  for (const [i, a] of given.entries()) {
    for (const b of given.slice(i + 1)) {
      if (sameFile(a.path, b.path, host)) {
        const names = a.path === b.path ? a.path : `${a.path} and ${b.path}`;
        throw new ArgumentError(`${a.flag} and ${b.flag} name the same file (${names}); give each its own`, b.flag);
      }
    }
  }
}
