/**
 * `JSON.stringify(value, null, 2)` as a sequence of strings, for documents
 * that may be larger than the longest string V8 builds (2^29 − 24 characters
 * on 64-bit Node 20): an hour-long result, a sweep embedding many. Joined, the
 * chunks are exactly the text JSON.stringify would make (a test compares them).
 *
 * Big containers are walked; one holding fewer than 2,000 values (a small
 * result whole, one interval, a TCP_INFO reading) goes out in one
 * JSON.stringify, so chunks stay small and the walk costs little. `batched` joins them into
 * pieces of about 64 KiB for the file system.
 */

const STEP = '  ';
/** '\n' and the indentation of each depth, made once. */
const PADS: string[] = [];

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** Values below a container, counted up to `cap` (the count stops there, so a big container costs little to size). */
function smallerThan(v: unknown, cap: number): number {
  if (v === null || typeof v !== 'object') return cap - 1;
  let left = cap;
  for (const x of Object.values(v)) {
    left = smallerThan(x, left);
    if (left <= 0) return 0;
  }
  return left - 1;
}

/** A container with fewer values than this goes out in one JSON.stringify (tens of KiB at most). */
const WHOLE_BELOW = 2000;

/** The pretty-printed JSON of `value`, in pieces. */
export function* jsonChunks(value: unknown, depth = 0, key = ''): Generator<string> {
  const v =
    value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? (value as { toJSON(k: string): unknown }).toJSON(key)
      : value;
  if (v === null || typeof v !== 'object' || smallerThan(v, WHOLE_BELOW) > 0) {
    const text = JSON.stringify(v, null, 2);
    yield depth ? text.replaceAll('\n', (PADS[depth] ??= '\n' + STEP.repeat(depth))) : text;
    return;
  }
  const pad = '\n' + STEP.repeat(depth + 1);
  if (Array.isArray(v)) {
    yield '[';
    for (let i = 0; i < v.length; i++) {
      yield (i ? ',' : '') + pad;
      if (omitted(v[i])) yield 'null';
      else yield* jsonChunks(v[i], depth + 1, String(i));
    }
    yield '\n' + STEP.repeat(depth) + ']';
    return;
  }
  const keys = Object.keys(v).filter((k) => !omitted((v as Record<string, unknown>)[k]));
  yield '{';
  let first = true;
  for (const k of keys) {
    yield `${first ? '' : ','}${pad}${JSON.stringify(k)}: `;
    first = false;
    yield* jsonChunks((v as Record<string, unknown>)[k], depth + 1, k);
  }
  yield '\n' + STEP.repeat(depth) + '}';
}

/** A JSON file's text in pieces: the value pretty-printed, then a newline. */
export function* jsonDocument(value: unknown): Generator<string> {
  yield* jsonChunks(value);
  yield '\n';
}

/** Join small chunks into pieces of at least `size` characters (the last may be shorter). */
export function* batched(chunks: Iterable<string>, size = 64 * 1024): Generator<string> {
  let parts: string[] = [];
  let length = 0;
  for (const c of chunks) {
    parts.push(c);
    length += c.length;
    if (length >= size) {
      yield parts.join('');
      parts = [];
      length = 0;
    }
  }
  if (length) yield parts.join('');
}
