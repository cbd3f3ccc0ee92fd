/**
 * Windows: restrict a folder to this user, SYSTEM and Administrators. A file
 * mode (0600) means nothing on NTFS; what protects a file there is its ACL,
 * which a new file inherits from its folder. Under the user's profile
 * (`%LOCALAPPDATA%`) the inherited ACL already allows only the user, SYSTEM
 * and Administrators; elsewhere (a `LONGHAUL_TRUST_DIR` such as `D:\lh`) it
 * may let every user read. So the trust folder gets its own ACL:
 *
 *   icacls DIR /grant:r DOMAIN\user:(OI)(CI)F *S-1-5-18:(OI)(CI)F *S-1-5-32-544:(OI)(CI)F
 *   icacls DIR /inheritance:r
 *
 * Two steps, in that order, so that a failure can never lock the user out:
 * the explicit grants exist before the inherited entries go, and the second
 * step runs only if the first succeeded. SYSTEM and Administrators are named
 * by SID (their names are translated on non-English Windows). icacls is run by
 * its full path (`%SystemRoot%\System32`): a bare name would also be looked
 * up in the current folder first. Each step is a child process bounded by a
 * timeout; any failure is returned as a reason, never thrown.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { envValue, type HostPaths } from '../util/app-paths.js';

export interface CommandOutcome {
  /** Exit code; null when the program could not start or was killed. */
  code: number | null;
  timedOut: boolean;
  /** stdout and stderr (or why it could not start), for the warning. */
  text: string;
}

/** Runs a program with arguments (never through a shell), killed after `timeoutMs`. */
export type CommandRunner = (file: string, args: readonly string[], timeoutMs: number) => Promise<CommandOutcome>;

/** Per icacls step. It takes milliseconds on a new, empty folder; a hung one must not hold up a start for long. */
const ACL_STEP_TIMEOUT_MS = 5000;

/** `*SID` is icacls' syntax for an account given by SID. */
const SYSTEM_SID = '*S-1-5-18';
const ADMINISTRATORS_SID = '*S-1-5-32-544';
/** Full control, inherited by files (OI) and folders (CI) created inside. */
const FULL = ':(OI)(CI)F';

export const runBounded: CommandRunner = (file, args, timeoutMs) =>
  new Promise((resolve) => {
    try {
      execFile(
        file,
        [...args],
        { timeout: timeoutMs, killSignal: 'SIGKILL', windowsHide: true, maxBuffer: 64 * 1024, encoding: 'utf8' },
        (err, stdout, stderr) => {
          const text = `${stdout}${stderr}`.trim();
          if (!err) return resolve({ code: 0, timedOut: false, text });
          const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
          if (e.killed) return resolve({ code: null, timedOut: true, text });
          if (typeof e.code === 'number') return resolve({ code: e.code, timedOut: false, text });
          resolve({ code: null, timedOut: false, text: e.message });
        },
      );
    } catch (err) {
      resolve({ code: null, timedOut: false, text: (err as Error).message });
    }
  });

/** icacls.exe by its full path. */
function icaclsPath(host: HostPaths): string {
  const root = envValue(host, 'SystemRoot') ?? envValue(host, 'windir') ?? 'C:\\Windows';
  return path.win32.join(root, 'System32', 'icacls.exe');
}

/** The account to keep, as `DOMAIN\user` (a local account's domain is the PC's name), or null if unknown. */
function currentAccount(host: HostPaths): string | null {
  const user = envValue(host, 'USERNAME');
  if (!user) return null;
  const domain = envValue(host, 'USERDOMAIN');
  return domain ? `${domain}\\${user}` : user;
}

/** The two icacls argument lists, in the order they must run. */
export function icaclsSteps(dir: string, account: string): string[][] {
  return [
    [dir, '/grant:r', `${account}${FULL}`, `${SYSTEM_SID}${FULL}`, `${ADMINISTRATORS_SID}${FULL}`],
    [dir, '/inheritance:r'],
  ];
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim()) ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Give `dir` an ACL of this user, SYSTEM and Administrators only (see the top
 * of this file). Resolves to null when done, else to the reason it was not.
 */
export async function restrictToUser(dir: string, host: HostPaths, run: CommandRunner = runBounded, timeoutMs = ACL_STEP_TIMEOUT_MS): Promise<string | null> {
  const account = currentAccount(host);
  if (!account) return 'USERNAME is not set, so the account to keep is unknown';
  const exe = icaclsPath(host);
  for (const args of icaclsSteps(dir, account)) {
    const r = await run(exe, args, timeoutMs);
    if (r.timedOut) return `icacls ${args[1]} did not finish within ${timeoutMs / 1000} s`;
    if (r.code === null) return `cannot run ${exe}: ${firstLine(r.text)}`;
    if (r.code !== 0) return `icacls ${args[1]} failed (exit code ${r.code}${r.text ? `: ${firstLine(r.text)}` : ''})`;
  }
  return null;
}
