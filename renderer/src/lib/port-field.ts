/**
 * What is wrong with a typed TCP port, in words shown under its field (a red
 * border alone says nothing about what to type instead).
 */

/** Longest typed text repeated back in a message: enough to recognise it, not a paragraph. */
const ECHO_CHARS = 12;

/**
 * The message for a port field, or null when `text` is a port. `allowAny`: 0 is
 * accepted and means "any free port" (a listener may take one; a partner's port may not be 0).
 */
export function portProblem(text: string, allowAny: boolean): string | null {
  const typed = text.trim();
  const wanted = allowAny ? 'a number from 1 to 65535, or 0 for any free port' : 'a number from 1 to 65535';
  if (typed === '') return `Type a port: ${wanted}.`;
  const echo = typed.length > ECHO_CHARS ? `${typed.slice(0, ECHO_CHARS)}…` : typed;
  if (!/^\d+$/.test(typed)) return `"${echo}" is not a port: type ${wanted}.`;
  const n = Number(typed);
  if (n > 65535 || (n === 0 && !allowAny)) return `${echo} is not a port: type ${wanted}.`;
  return null;
}
