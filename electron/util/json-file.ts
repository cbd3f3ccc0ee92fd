/**
 * Read a JSON file in pieces (json-pieces.ts): never the whole text at once,
 * so a file larger than V8's longest string still reads. Stops reading early
 * when `onTopKey` says so (History's listing reads a result's head only).
 */
import { createReadStream } from 'node:fs';
import { JsonPieces, type JsonPiecesOptions } from './json-pieces.js';

export { JsonSyntaxError } from './json-pieces.js';

/** Throws the file system's error (with its `code`) or a JsonSyntaxError. */
export async function readJsonFile(path: string, opts: JsonPiecesOptions = {}): Promise<unknown> {
  const pieces = new JsonPieces(opts);
  const stream = createReadStream(path, { highWaterMark: 1024 * 1024 });
  try {
    for await (const chunk of stream) {
      pieces.push(chunk as Buffer);
      if (pieces.done) break;
    }
  } finally {
    stream.destroy();
  }
  return pieces.end();
}
