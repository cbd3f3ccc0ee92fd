/**
 * Text from the network (a peer's error message, its host name) made safe for
 * a terminal: control characters (C0, DEL, C1: escape sequences could move the
 * cursor, retitle the window or rewrite earlier lines) and bidirectional
 * overrides (which reorder what the user reads) become `\u{…}`; the length is capped.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this replaces
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export function printable(text: string, maxLength = 300): string {
  // A match is one code point, so codePointAt(0) is never undefined here.
  const safe = text.replace(UNSAFE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
  return safe.length > maxLength ? `${safe.slice(0, maxLength)}…` : safe;
}
