/**
 * The CLI's side of the units: parsers that throw an ArgumentError naming the
 * flag, for commander's option parsers and the engine's own validation. The
 * rules and the formatters are electron/contract/units.ts's, imported from
 * there by every caller (nothing is re-exported here: one way to import each).
 */
import { EXAMPLES, parseDuration as parseDurationText, parseRate as parseRateText, parseSize as parseSizeText, type Parsed } from '../contract/units.js';
import { ArgumentError } from './errors.js';

function valueOf(r: Parsed, text: string, what: string, flag?: string): number {
  if (r.ok) return r.value;
  const where = flag ? `${flag}: ` : '';
  if (r.error === 'too large') throw new ArgumentError(`${where}"${text}" is too large`, flag);
  throw new ArgumentError(`${where}"${text}" is not a valid ${what}`, flag);
}

/** Parse a byte count such as `64K`, `20M`, `650000`. Returns whole bytes. */
export function parseSize(text: string, flag?: string): number {
  return valueOf(parseSizeText(text), text, `size (e.g. ${EXAMPLES.size})`, flag);
}

/** Parse a rate such as `4mbit`, `1g`, `56k`. Returns bits per second. */
export function parseRate(text: string, flag?: string): number {
  return valueOf(parseRateText(text), text, `rate (e.g. 4mbit, 1g, 56k)`, flag);
}

/** Parse a duration such as `650ms`, `1.3s`, `10`. Returns seconds. */
export function parseDuration(text: string, flag?: string): number {
  return valueOf(parseDurationText(text), text, `duration (e.g. ${EXAMPLES.duration})`, flag);
}
