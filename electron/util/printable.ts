/**
 * The one neutraliser of text Longhaul did not write itself: from the network (a peer's error
 * message, its host name: protocol/peer-text.ts, where it arrives) and from files (a result, group
 * or sweep file given to `report --from`, History, the app: `neutralised` on every JSON document
 * read, report/result-file.ts readJson). Every renderer then sees safe text, with no second place to
 * forget. What a terminal, a log viewer or a spreadsheet would act on or hide becomes a visible
 * `\u{…}`: C0 and C1 controls and DEL (escape sequences move the cursor, retitle the window, write
 * the clipboard with OSC 52; 0x9B is a one-byte CSI), bidirectional overrides and isolates (they
 * reorder what the user reads), and every other format character (zero-width, BOM) and the Unicode
 * line and paragraph separators. The length is capped.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

export function printable(text: string, maxLength = 300): string {
  // A match is one code point, so codePointAt(0) is never undefined here.
  const safe = text.replace(UNSAFE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
  return safe.length > maxLength ? `${safe.slice(0, maxLength)}…` : safe;
}

/** Whether `text` holds anything `printable` would escape. */
function isPrintable(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return !UNSAFE.test(text);
}

/**
 * A JSON value read from a file with every string in it, keys too, made printable (not capped: a
 * file's own lengths are checked by its schema). Values already safe are returned as they are.
 */
export function neutralised(value: unknown): unknown {
  if (typeof value === 'string') return isPrintable(value) ? value : printable(value, Infinity);
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = neutralised(value[i]);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = isPrintable(k) ? k : printable(k, Infinity);
      const nv = neutralised(v);
      if (key !== k || nv !== v) changed = true;
      out[key] = nv;
    }
    return changed ? out : value;
  }
  return value;
}
