/**
 * Reads one JSON document fed in chunks of bytes, without ever holding its
 * whole text: a result of an hour-long run can be larger than the longest
 * string V8 builds (2^29 − 24 characters on 64-bit Node 20), so
 * `JSON.parse(readFile())` would fail on it.
 *
 * This is not a JSON parser: `JSON.parse` does the parsing and checking.
 * Every value is first taken as one piece (scanned for its end: brackets and
 * strings only) and parsed whole; a container that grows past `maxPieceBytes`
 * before it ends is walked instead (keys, commas, colons), its members again
 * taken as pieces. So the text held at once is at most about one piece, a
 * small file is one JSON.parse, and the speed is mostly JSON.parse's.
 *
 *   const p = new JsonPieces();
 *   p.push(chunk); …; const value = p.end();
 *
 * Nesting is limited to `maxDepth` levels (default MAX_JSON_DEPTH): a result
 * is about 8 deep, and the limit bounds the work. A container walked instead
 * of parsed was scanned once (up to `maxPieceBytes`) before the walk, and
 * each of its members again, so without a limit a file nested n deep costs
 * n × maxPieceBytes (`[`×150,000 `]`×150,000, 300 KB: 17 s); with it, at most
 * maxDepth scans of each byte, time linear in the file.
 *
 * Like the framing parser, it never touches a file or socket; tests feed it
 * buffers split at every offset.
 */

/** The deepest nesting read (arrays and objects); a deeper document is refused. */
export const MAX_JSON_DEPTH = 64;

/** The text is not JSON; `offset` is the byte where that became clear. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at byte ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

/** What to do with a member of the top-level object: read it, skip it unparsed, or stop reading. */
type TopKeyChoice = 'read' | 'skip' | 'stop';

export interface JsonPiecesOptions {
  /** A value whose text is longer than this is walked rather than parsed whole. Default 256 KiB. */
  maxPieceBytes?: number;
  /** Arrays and objects nested deeper than this are refused (JsonSyntaxError). Default MAX_JSON_DEPTH. */
  maxDepth?: number;
  /** Called for each key of the top-level object, with the members read so far. */
  onTopKey?: (key: string, soFar: Record<string, unknown>) => TopKeyChoice;
}

type Expect = 'value' | 'valueOrEnd' | 'key' | 'keyOrEnd' | 'colon' | 'commaOrEnd' | 'done';

interface Frame {
  value: Record<string, unknown> | unknown[];
  array: boolean;
  key: string | null;
}

interface Piece {
  start: number;
  kind: 'string' | 'scalar' | 'container';
  /** Open brackets (container pieces). */
  depth: number;
  inString: boolean;
  escaped: boolean;
  /** A skipped member: scanned to its end but not kept or parsed. */
  skip: boolean;
  /** This string is an object key. */
  isKey: boolean;
}

const TOO_BIG = -2;

/** Whether an odd number of backslashes ends just before `at` (counting back to `from`): the byte at `at` is escaped. */
function oddBackslashesBefore(b: Buffer, at: number, from: number): boolean {
  let j = at - 1;
  while (j >= from && b[j] === BACKSLASH) j--;
  return (at - 1 - j) % 2 === 1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
const [QUOTE, BACKSLASH, COMMA, COLON] = [0x22, 0x5c, 0x2c, 0x3a];
const [OPEN_OBJ, CLOSE_OBJ, OPEN_ARR, CLOSE_ARR] = [0x7b, 0x7d, 0x5b, 0x5d];

export class JsonPieces {
  private buf: Buffer = Buffer.alloc(0);
  /** Absolute offset of buf[0] in the document. */
  private base = 0;
  private pos = 0;
  private readonly stack: Frame[] = [];
  private expect: Expect = 'value';
  private piece: Piece | null = null;
  private root: unknown = undefined;
  private stopped = false;
  /** Absolute offset of the container found too big to be one piece: walk it when it is met again. */
  private walkAt = -1;
  private readonly maxPieceBytes: number;
  private readonly maxDepth: number;

  constructor(private readonly opts: JsonPiecesOptions = {}) {
    this.maxPieceBytes = opts.maxPieceBytes ?? 256 * 1024;
    this.maxDepth = opts.maxDepth ?? MAX_JSON_DEPTH;
  }

  /** True once `onTopKey` said stop: the caller may stop feeding and call `end()`. */
  get done(): boolean {
    return this.stopped;
  }

  push(chunk: Buffer): void {
    if (this.stopped) return;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    this.scan();
    // Keep the unread bytes and a kept piece's text; a skipped piece keeps nothing behind it.
    const keep = this.piece && !this.piece.skip ? this.piece.start : this.pos;
    if (keep > 0) this.keepFrom(keep);
  }

  /** The document (or, after a stop, the top-level members read so far). Throws JsonSyntaxError if incomplete. */
  end(): unknown {
    if (this.stopped) return this.stack[0]?.value;
    // A top-level scalar ends at the end of the text.
    if (this.piece?.kind === 'scalar' && this.stack.length === 0) this.finishPiece(this.piece, this.buf.length);
    for (let c = this.buf[this.pos]; c !== undefined; c = this.buf[++this.pos]) if (!isSpace(c)) this.fail('text after the end of the document');
    if (this.expect !== 'done') this.fail('the document ends early (a truncated file?)');
    return this.root;
  }

  private keepFrom(at: number): void {
    this.buf = this.buf.subarray(at);
    this.base += at;
    this.pos -= at;
    if (this.piece) this.piece.start -= at;
  }

  private fail(what: string): never {
    throw new JsonSyntaxError(what, this.base + this.pos);
  }

  private scan(): void {
    const b = this.buf;
    while (this.pos < b.length && !this.stopped) {
      if (this.piece) {
        const end = this.scanPiece(this.piece);
        if (end === TOO_BIG) this.walkInstead(this.piece);
        else if (end < 0) return;
        else this.finishPiece(this.piece, end);
        continue;
      }
      const c = b[this.pos];
      if (c === undefined) return;
      if (isSpace(c)) {
        this.pos++;
        continue;
      }
      this.step(c);
    }
  }

  /** One structural byte outside any piece. */
  private step(c: number): void {
    const top = this.stack[this.stack.length - 1];
    switch (this.expect) {
      case 'done':
        return this.fail('text after the end of the document');
      case 'colon':
        if (c !== COLON) this.fail('":" expected');
        this.pos++;
        this.expect = 'value';
        return;
      case 'commaOrEnd':
        if (c === COMMA) {
          this.pos++;
          if (!top) return this.fail('"," outside an array or object');
          this.expect = top.array ? 'value' : 'key';
          return;
        }
        return this.close(c);
      case 'keyOrEnd':
      case 'key':
        if (c === CLOSE_OBJ && this.expect === 'keyOrEnd') return this.close(c);
        if (c !== QUOTE) this.fail('a key (a string) expected');
        return this.startPiece('string', false, true);
      case 'valueOrEnd':
      case 'value':
        if (c === CLOSE_ARR && this.expect === 'valueOrEnd') return this.close(c);
        return this.startValue(c);
    }
  }

  private startValue(c: number): void {
    const top = this.stack[this.stack.length - 1];
    if (this.walkAt === this.base + this.pos) {
      this.walkAt = -1;
      return this.open(c);
    }
    let skip = false;
    if (this.stack.length === 1 && top && !top.array && top.key !== null && this.opts.onTopKey) {
      const choice = this.opts.onTopKey(top.key, top.value as Record<string, unknown>);
      if (choice === 'stop') {
        this.stopped = true;
        return;
      }
      skip = choice === 'skip';
    }
    // The top-level object is walked when its members are chosen one by one.
    if ((c === OPEN_OBJ || c === OPEN_ARR) && this.stack.length === 0 && this.opts.onTopKey) return this.open(c);
    if (c === CLOSE_OBJ || c === CLOSE_ARR || c === COMMA || c === COLON) this.fail('a value expected');
    this.startPiece(c === QUOTE ? 'string' : c === OPEN_OBJ || c === OPEN_ARR ? 'container' : 'scalar', skip, false);
  }

  private open(c: number): void {
    if (this.stack.length >= this.maxDepth) this.tooDeep();
    this.stack.push({ value: c === OPEN_ARR ? [] : {}, array: c === OPEN_ARR, key: null });
    this.pos++;
    this.expect = c === OPEN_ARR ? 'valueOrEnd' : 'keyOrEnd';
  }

  private tooDeep(): never {
    this.fail(`arrays and objects nested deeper than ${this.maxDepth} levels`);
  }

  /** A container piece too long to parse whole: go back to its start and walk it. */
  private walkInstead(p: Piece): void {
    this.piece = null;
    this.pos = p.start;
    this.walkAt = this.base + p.start;
  }

  private startPiece(kind: Piece['kind'], skip: boolean, isKey: boolean): void {
    this.piece = { start: this.pos, kind, depth: 0, inString: false, escaped: false, skip, isKey };
    if (kind === 'string') {
      this.piece.inString = true;
      this.pos++;
    }
  }

  /** Advance through a piece; its end (exclusive) once found, else -1 (more bytes needed) or TOO_BIG. */
  private scanPiece(p: Piece): number {
    const b = this.buf;
    const bounded = p.kind === 'container' && !p.skip;
    const limit = bounded ? Math.min(b.length, p.start + this.maxPieceBytes) : b.length;
    let i = this.pos;
    let { depth, inString, escaped } = p;
    let end = -1;
    while (i < limit && end < 0) {
      if (inString) {
        if (escaped) {
          escaped = false;
          i++;
          continue;
        }
        // Strings are most of the bytes: let indexOf find the closing quote.
        const q = b.indexOf(QUOTE, i);
        if (q < 0 || q >= limit) {
          escaped = oddBackslashesBefore(b, limit, i);
          i = limit;
        } else if (oddBackslashesBefore(b, q, i)) {
          i = q + 1;
        } else {
          inString = false;
          i = q + 1;
          if (p.kind === 'string') end = i;
        }
        continue;
      }
      const c = b[i];
      if (c === undefined) break;
      if (p.kind === 'scalar') {
        if (isSpace(c) || c === COMMA || c === CLOSE_OBJ || c === CLOSE_ARR) end = i;
        else i++;
        continue;
      }
      i++;
      if (c === QUOTE) inString = true;
      else if (c === OPEN_OBJ || c === OPEN_ARR) {
        if (this.stack.length + ++depth > this.maxDepth) {
          this.pos = i - 1;
          this.tooDeep();
        }
      } else if ((c === CLOSE_OBJ || c === CLOSE_ARR) && --depth === 0) end = i;
    }
    Object.assign(p, { depth, inString, escaped });
    this.pos = i;
    if (end >= 0) return end;
    return bounded && i >= p.start + this.maxPieceBytes ? TOO_BIG : -1;
  }

  private finishPiece(p: Piece, end: number): void {
    this.piece = null;
    this.pos = end;
    if (p.skip) return this.deliver(undefined);
    let value: unknown;
    try {
      value = JSON.parse(this.buf.toString('utf8', p.start, end));
    } catch (err) {
      throw new JsonSyntaxError((err as Error).message, this.base + p.start);
    }
    if (p.isKey) {
      const top = this.stack.at(-1);
      if (!top) return this.fail('a key outside an object');
      top.key = value as string;
      this.expect = 'colon';
      return;
    }
    this.deliver(value);
  }

  private close(c: number): void {
    const top = this.stack[this.stack.length - 1];
    if (!top || c !== (top.array ? CLOSE_ARR : CLOSE_OBJ)) this.fail(`"${String.fromCharCode(c)}" where "${top?.array ? ']' : '}'}" or "," was expected`);
    this.pos++;
    this.stack.pop();
    this.deliver(top.value);
  }

  /** A complete value: the root, an array element or an object member (`undefined`: skipped). */
  private deliver(value: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      this.root = value;
      this.expect = 'done';
      return;
    }
    if (top.array) (top.value as unknown[]).push(value);
    else if (value === undefined) {
      // a skipped member
    } else if (top.key === null) {
      this.fail('an object member without a key');
    } else if (top.key === '__proto__') {
      // An own property, as JSON.parse makes it: a file cannot change an object's prototype.
      Object.defineProperty(top.value, top.key, { value, writable: true, enumerable: true, configurable: true });
    } else {
      (top.value as Record<string, unknown>)[top.key] = value;
    }
    this.expect = 'commaOrEnd';
  }
}
