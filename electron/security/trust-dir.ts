/**
 * The trust folder: where an installation keeps its identity and its peers
 * (the rule is `trustDir` in util/app-paths.ts), and how it is protected.
 *
 * - Linux, macOS: folder 0700, files 0600 (private-files.ts).
 * - Windows: the folder's ACL is reduced to this user, SYSTEM and
 *   Administrators (windows-acl.ts), once: a marker file records that it was
 *   done, and a failed attempt is tried again at the next start. Until it
 *   succeeds the folder keeps the ACL it inherits (under the profile: the
 *   same three) and the caller gets a warning to show.
 *
 * Not under `$LONGHAUL_DATA_DIR`: that folder holds result files, often shared.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { currentHost, type HostPaths } from '../util/app-paths.js';
import { makePrivateDir } from './private-files.js';
import { restrictToUser, runBounded, type CommandRunner } from './windows-acl.js';

export interface DirProtection {
  /** `posix-modes`: 0700/0600. `windows-acl`: our own ACL. `windows-inherited`: the parent folder's ACL (see `warning`). */
  how: 'posix-modes' | 'windows-acl' | 'windows-inherited';
  /** Why the intended protection is missing, for the user; null when it is in place. */
  warning: string | null;
}

/** Written into the trust folder once its ACL is set. */
export const ACL_MARKER = 'windows-acl.txt';

/** Create the trust folder if needed and protect it as this OS allows. Never throws for the ACL step. */
export async function protectTrustDir(dir: string, host: HostPaths = currentHost(), run: CommandRunner = runBounded): Promise<DirProtection> {
  makePrivateDir(dir, host.platform);
  if (host.platform !== 'win32') return { how: 'posix-modes', warning: null };
  const marker = path.join(dir, ACL_MARKER);
  if (existsSync(marker)) return { how: 'windows-acl', warning: null };
  const failure = await restrictToUser(dir, host, run);
  if (failure) {
    return {
      how: 'windows-inherited',
      warning:
        `could not restrict the trust folder ${dir} to this user (${failure}); it keeps the permissions of its parent folder ` +
        '(in your profile: you, SYSTEM and Administrators). Longhaul tries again at the next start; see docs/security.md',
    };
  }
  try {
    writeFileSync(marker, `This folder's ACL was set to this user, SYSTEM and Administrators on ${new Date().toISOString()} (icacls).\r\n`);
  } catch {
    // Without the marker the (idempotent) icacls steps simply run again next time.
  }
  return { how: 'windows-acl', warning: null };
}
