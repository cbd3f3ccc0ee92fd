/**
 * Free text a peer sends (error messages, host names, software strings, reasons)
 * is made printable where it enters: the schema that accepts it strips what a
 * terminal or a log would act on (util/printable.ts). Everything downstream
 * (the CLI, logs, reports, the UI, saved results) then only ever sees safe text,
 * with no second place to forget.
 */
import { z } from 'zod';
import { printable } from '../util/printable.js';

/** A string of at most `max` characters from the network, made printable (escaped, capped at `max`). */
export function peerText(max: number): z.ZodType<string> {
  return z
    .string()
    .max(max)
    .transform((s) => printable(s, max)) as unknown as z.ZodType<string>;
}
