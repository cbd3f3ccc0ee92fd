/**
 * Files only their owner may read: the identity key and the peers store.
 *
 * On Linux and macOS the folder is 0700 and each file 0600 (an existing
 * folder readable by others is tightened). On Windows modes mean nothing on
 * NTFS: the folder's ACL protects the files (security/trust-dir.ts,
 * windows-acl.ts), and files are written with the defaults they inherit.
 *
 * Every write goes to a temporary file that is then renamed over the old one,
 * so a reader (a `listen` re-reading peers.json) never sees half a file. On
 * Windows that rename fails while another program holds the old file open
 * without delete sharing (a virus scanner looking at it, for a few ms):
 * it is retried for up to about a second before giving up.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';

interface PrivateFileOptions {
  platform?: NodeJS.Platform;
  /** The rename step (tests pass one that fails a few times). */
  rename?: (from: string, to: string) => void;
}

/** Waits between rename attempts on Windows, in ms: about 1.3 s in all. */
const RENAME_RETRY_MS = [10, 20, 40, 80, 160, 320, 640];
/** What Windows says while another process has the target open. */
const BUSY = new Set(['EPERM', 'EACCES', 'EBUSY']);

/** Create `dir` (and parents); on POSIX make it 0700, also if it existed. */
export function makePrivateDir(dir: string, platform: NodeJS.Platform = process.platform): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (platform !== 'win32') chmodSync(dir, 0o700);
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Write a file readable by its owner only, atomically (temp file, then rename). */
export function writePrivate(file: string, text: string, o: PrivateFileOptions = {}): void {
  const platform = o.platform ?? process.platform;
  const rename = o.rename ?? renameSync;
  // Random and created exclusively: a name planted in advance (a symlink) makes the write fail, never followed.
  const tmp = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
  if (platform !== 'win32') chmodSync(tmp, 0o600);
  const waits = platform === 'win32' ? RENAME_RETRY_MS : [];
  for (let attempt = 0; ; attempt++) {
    try {
      rename(tmp, file);
      return;
    } catch (err) {
      const wait = waits[attempt];
      if (wait === undefined || !BUSY.has((err as NodeJS.ErrnoException).code ?? '')) {
        rmSync(tmp, { force: true });
        throw err;
      }
      sleepSync(wait);
    }
  }
}
