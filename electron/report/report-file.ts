/**
 * A report file written as a run goes: a body that only grows (header,
 * interval rows) and a tail that is replaced at every write (the provisional
 * summary, then the final one). Body and tail go out in one positional write,
 * so a process killed at any moment leaves every interval so far followed by
 * a summary marked partial.
 *
 * Opening never clobbers: an existing file needs `force`. Errors carry stable
 * codes and say what to do; a failed file stops taking writes (the run and the
 * other reports go on), and what was written before stays.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { batched } from '../util/json-chunks.js';
import { LonghaulError } from '../util/errors.js';

/** A file-system error as a message a user can act on. */
export function fileError(path: string, err: unknown, doing: string): LonghaulError {
  const code = (err as NodeJS.ErrnoException).code;
  const why: Record<string, string> = {
    EEXIST: 'it already exists; add --force to overwrite it, or choose another name',
    ENOSPC: 'the disk is full; free some space (what was written before is kept)',
    EDQUOT: 'the disk quota is exhausted; free some space (what was written before is kept)',
    EACCES: 'permission denied; choose a folder you can write to',
    EPERM: 'the operation is not permitted; choose a folder you can write to',
    EROFS: 'the file system is read-only; choose another folder',
    ENOENT: doing === 'read' ? 'no such file' : 'the folder does not exist; create it first',
    ENOTDIR: 'a part of the path is not a folder',
    EISDIR: 'it is a folder; give a file name',
  };
  const text = (code && why[code]) ?? (err instanceof Error ? err.message : String(err));
  return new LonghaulError(code === 'EEXIST' ? 'LH_ERR_FILE_EXISTS' : 'LH_ERR_IO', `cannot ${doing} ${path}: ${text}${code ? ` (${code})` : ''}`, {
    cause: err,
  });
}

function isFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Open for writing without truncating anything yet: a new file is created
 * (`created`); an existing one is only opened with `force`, and its old
 * content is cut off by the first write. So a run refused because a second
 * file is bad loses nothing of the first.
 */
function openForWrite(path: string, force: boolean): { fd: number; created: boolean } {
  try {
    return { fd: fs.openSync(path, 'wx'), created: true };
  } catch (err) {
    // A folder "exists" too; --force would not help there (C:\Results\ instead of C:\Results\run.csv).
    if ((err as NodeJS.ErrnoException).code === 'EEXIST' && isFolder(path))
      throw fileError(path, Object.assign(new Error('is a folder'), { code: 'EISDIR' }), 'create');
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !force) throw fileError(path, err, 'create');
  }
  try {
    return { fd: fs.openSync(path, fs.constants.O_WRONLY | fs.constants.O_CREAT), created: false };
  } catch (err) {
    throw fileError(path, err, 'open');
  }
}

export class ReportFile {
  private fd: number | null;
  private bodyBytes = 0;
  private fileBytes = 0;
  private failure: LonghaulError | null = null;

  private constructor(
    readonly path: string,
    fd: number,
    private readonly created: boolean,
  ) {
    this.fd = fd;
    try {
      this.fileBytes = fs.fstatSync(fd).size; // old content, cut off by the first write
    } catch {
      this.fileBytes = 0;
    }
  }

  /** Create the file now (before a run starts, so a bad path fails before any traffic). */
  static open(path: string, force: boolean): ReportFile {
    const { fd, created } = openForWrite(path, force);
    return new ReportFile(path, fd, created);
  }

  /** Give up before writing anything: close, and remove the file if this opened created it. */
  discard(): void {
    const fd = this.fd;
    this.fd = null;
    if (fd === null) return;
    try {
      fs.closeSync(fd);
      if (this.created && this.bodyBytes === 0) fs.unlinkSync(this.path);
    } catch {
      // Best effort: the caller is already reporting the error that made it give up.
    }
  }

  /** Why this file stopped taking writes, or null. */
  get error(): LonghaulError | null {
    return this.failure;
  }

  /** Append `body` for good and replace the tail with `tail`. Never throws; see `error`. */
  write(body: string, tail: string): void {
    if (this.fd === null || this.failure) return;
    const bodyBuf = Buffer.from(body);
    const all = Buffer.concat([bodyBuf, Buffer.from(tail)]);
    try {
      let done = 0;
      while (done < all.length) done += fs.writeSync(this.fd, all, done, all.length - done, this.bodyBytes + done);
      const end = this.bodyBytes + all.length;
      if (end < this.fileBytes) fs.ftruncateSync(this.fd, end);
      this.bodyBytes += bodyBuf.length;
      this.fileBytes = end;
    } catch (err) {
      this.failure = fileError(this.path, err, 'write');
    }
  }

  /** Flush to the disk and close. Idempotent; never throws (see `error`). */
  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      if (!this.failure) fs.fsyncSync(fd);
    } catch (err) {
      // Character devices and some network file systems cannot fsync; the data is with the OS either way.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EINVAL' && code !== 'ENOTSUP') this.failure = fileError(this.path, err, 'flush');
    }
    try {
      fs.closeSync(fd);
    } catch (err) {
      this.failure ??= fileError(this.path, err, 'close');
    }
  }
}

/**
 * A file's content: one string, or pieces of it (a document that may be larger than the
 * longest string V8 builds, written as it is made: util/json-chunks.ts).
 */
export type FileContent = string | Iterable<string>;

function piecesOf(content: FileContent): Iterable<string> {
  return typeof content === 'string' ? [content] : batched(content);
}

/** Write a whole file (for `report --out`), refusing to clobber without `force`. Throws LonghaulError. */
export function writeWholeFile(path: string, content: FileContent, force: boolean): void {
  const f = ReportFile.open(path, force);
  for (const piece of piecesOf(content)) f.write(piece, '');
  f.close();
  if (f.error) throw f.error;
}

/**
 * Check, without creating anything, that a file written only at the end (the
 * JSON result) can be: not an existing file unless `force`, in a folder that
 * exists and is writable. Throws LonghaulError.
 */
export function checkWritable(file: string, force: boolean): void {
  let stat: fs.Stats | null = null;
  try {
    stat = fs.statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw fileError(file, err, 'create');
  }
  if (stat?.isDirectory()) throw fileError(file, Object.assign(new Error('is a directory'), { code: 'EISDIR' }), 'create');
  if (stat && !force) throw fileError(file, Object.assign(new Error('exists'), { code: 'EEXIST' }), 'create');
  try {
    fs.accessSync(stat ? file : path.dirname(path.resolve(file)), fs.constants.W_OK);
  } catch (err) {
    throw fileError(file, err, 'create');
  }
}

/**
 * The temporary name a replacement is written under: beside the file (same file system, so the
 * rename is atomic), random, and created exclusively ('wx'), so a name planted in advance (a
 * symlink to elsewhere) is never followed: its creation fails instead.
 */
function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
}

/**
 * Replace a file's whole content so a reader (or a crash) only ever sees the old
 * version or the new one: write a temporary file beside it, flush it, rename it
 * over. For files rewritten again and again (a sweep's JSON and CSV). Throws LonghaulError.
 */
export function replaceFileAtomically(file: string, content: FileContent): void {
  const temp = tempNameFor(file);
  try {
    const fd = fs.openSync(temp, 'wx', 0o644);
    try {
      for (const piece of piecesOf(content)) fs.writeFileSync(fd, piece);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw fileError(file, err, 'write');
  }
}

/**
 * replaceFileAtomically without blocking the event loop (the app's main process and the CLI
 * write results this way): the pieces are made only as fast as the disk takes them, so a
 * result of hundreds of MB never sits in memory as text.
 */
export async function replaceFileAtomicallyAsync(file: string, content: FileContent): Promise<void> {
  const temp = tempNameFor(file);
  try {
    const h = await fs.promises.open(temp, 'wx', 0o644);
    try {
      // One piece in flight at a time: the next is made only once the disk took the last.
      for (const piece of piecesOf(content)) await h.write(piece);
      await h.sync();
    } finally {
      await h.close();
    }
    await fs.promises.rename(temp, file);
  } catch (err) {
    await fs.promises.rm(temp, { force: true });
    throw fileError(file, err, 'write');
  }
}
