/**
 * Errors Longhaul raises on purpose, each with a stable code (the codes are in
 * contract/error-codes.ts, shared with the UI). Match on `code`, never on the
 * message: messages say what happened and what to do, and may be reworded.
 */
import type { LonghaulErrorCode } from '../contract/error-codes.js';

/** Base class: every error Longhaul raises on purpose has a stable code. */
export class LonghaulError extends Error {
  readonly code: LonghaulErrorCode;
  constructor(code: LonghaulErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LonghaulError';
    this.code = code;
  }

  /** A plain object that survives JSON and IPC. */
  toJSON(): { code: LonghaulErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** Something on the wire was malformed: framing, JSON, types, order. */
export class ProtocolError extends LonghaulError {
  constructor(code: LonghaulErrorCode, message: string) {
    super(code, message);
    this.name = 'ProtocolError';
  }
}

/** A user-supplied value (CLI flag, UI field) is invalid. Exit code 2. */
export class ArgumentError extends LonghaulError {
  readonly flag: string | undefined;
  constructor(message: string, flag?: string) {
    super('LH_ERR_BAD_ARGUMENT', message);
    this.name = 'ArgumentError';
    this.flag = flag;
  }
}

/** The other side stopped answering, closed, or timed out. */
export class PeerError extends LonghaulError {
  constructor(code: LonghaulErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'PeerError';
  }
}

/** Turn anything thrown into a `{ code, message }` pair for reports and IPC. */
export function describeError(err: unknown): { code: LonghaulErrorCode; message: string } {
  if (err instanceof LonghaulError) return err.toJSON();
  if (err instanceof Error) {
    const sys = (err as NodeJS.ErrnoException).code;
    return { code: 'LH_ERR_IO', message: sys ? `${err.message} (${sys})` : err.message };
  }
  return { code: 'LH_ERR_IO', message: String(err) };
}
