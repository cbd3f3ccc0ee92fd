/**
 * Read a JSON file in pieces (json-pieces.ts): never the whole text at once,
 * so a file larger than V8's longest string still reads. Stops reading early
 * when `onTopKey` says so (History's listing reads a result's head only).
 *
 * Only a regular file is read, and only up to the size it had when opened:
 * a results folder may be shared, and a FIFO would block the open, a link to
 * /dev/zero would never end, a file still growing would never end either.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { JsonPieces, type JsonPiecesOptions } from './json-pieces.js';

export interface JsonFileOptions extends JsonPiecesOptions {
  /** Refuse a file whose last path component is a symbolic link (ELOOP). */
  noFollow?: boolean;
  /** Read at most this many bytes; a document not done (or stopped) by then is refused (UnreadableFileError). */
  maxBytes?: number;
}

/** Not read: not a regular file (a FIFO, a device, a directory), or what was wanted is not within `maxBytes`. */
export class UnreadableFileError extends Error {
  override readonly name = 'UnreadableFileError';
}

/** Reads a chunk at a time: each is scanned before the next is read, so the event loop turns between them. */
const CHUNK_BYTES = 1024 * 1024;

/** Throws the file system's error (with its `code`), a JsonSyntaxError or an UnreadableFileError. */
export async function readJsonFile(path: string, opts: JsonFileOptions = {}): Promise<unknown> {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (opts.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
  const file = await open(path, flags);
  try {
    const st = await file.stat();
    if (!st.isFile()) throw new UnreadableFileError(`${path} is not a regular file`);
    const limit = Math.min(st.size, opts.maxBytes ?? Infinity);
    const pieces = new JsonPieces(opts);
    const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, Math.max(1, limit)));
    for (let at = 0; at < limit && !pieces.done;) {
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, limit - at), at);
      if (bytesRead === 0) break; // shorter than it was: what is there is the document
      at += bytesRead;
      // A copy: the pieces may keep part of this chunk while the next read reuses the buffer.
      pieces.push(Buffer.from(buffer.subarray(0, bytesRead)));
    }
    if (!pieces.done && st.size > limit) {
      throw new UnreadableFileError(`${path}: its first ${limit} bytes, the most read of one file here, do not hold what was wanted`);
    }
    return pieces.end();
  } finally {
    await file.close();
  }
}
