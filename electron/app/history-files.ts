/**
 * Which files of the results folder History may read. The folder is often
 * shared, so anybody who can write to it can plant a file: only regular
 * files are read (json-file.ts checks the opened file), and a symbolic link
 * is followed only to a file inside the folder itself.
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { LonghaulError } from '../util/errors.js';

/** The link emulator's measured capacity on this PC (emulator-capacity.ts), kept beside the results. */
export const EMULATOR_CAPACITY_FILE = 'emulator-capacity.json';
/** History's retention rule (history-retention.ts), kept beside the results. */
export const RETENTION_FILE = 'history-retention.json';
/** The app's own files in the results folder: not results, so neither listed nor named unreadable, nor ever pruned. */
export const APP_FILES: ReadonlySet<string> = new Set([EMULATOR_CAPACITY_FILE, RETENTION_FILE]);

/** The most of one file History's listing reads to find a result's head (older layouts put it after the intervals). */
export const LIST_READ_MAX_BYTES = 256 * 1024 * 1024;

/**
 * The path to open for `name` in `dir`: the file itself, or where its link points when that is
 * inside `dir`. Throws LH_ERR_BAD_RESULT for a link out of the folder or something not a file.
 * Open the answer with O_NOFOLLOW: a link swapped in after this check is then refused (ELOOP).
 */
export async function fileInFolder(dir: string, name: string): Promise<string> {
  const file = path.join(dir, name);
  const st = await lstat(file);
  if (!st.isSymbolicLink()) {
    if (!st.isFile()) throw new LonghaulError('LH_ERR_BAD_RESULT', `${file} is not a regular file`);
    return file;
  }
  const [target, folder] = await Promise.all([realpath(file), realpath(dir)]);
  if (path.dirname(target) !== folder && !target.startsWith(folder + path.sep)) {
    throw new LonghaulError('LH_ERR_BAD_RESULT', `${file} is a link to ${target}, outside the results folder: not followed`);
  }
  return target;
}
