/**
 * Why a port could not be had, in words the Waiting screen shows: the OS's
 * `listen EADDRINUSE: address already in use :::5211` names neither the cause
 * a user can see nor what to do, so the common causes are said in plain words.
 * The responder and the iperf3 server both listen from that screen.
 */
import type { LonghaulErrorCode } from '../contract/error-codes.js';
import { describeError } from '../util/errors.js';

/** Who is likely holding a busy port, and what to do instead: each listener says it its own way. */
interface PortInUseAdvice {
  /** e.g. "an iperf3 -s or another program holds it" */
  holder: string;
  /** e.g. "stop that program, or pick another port" */
  fix: string;
}

/** The error a failed `listen()` on `port` shows; never the raw OS text for the causes a user can fix. */
export function listenFailure(port: number, err: unknown, inUse: PortInUseAdvice): { code: LonghaulErrorCode; message: string } {
  const sys = (err as NodeJS.ErrnoException | null)?.code;
  if (sys === 'EADDRINUSE') return { code: 'LH_ERR_IO', message: `TCP port ${port} is already in use on this PC (${inUse.holder}): ${inUse.fix}` };
  if (sys === 'EACCES') return { code: 'LH_ERR_IO', message: `this PC does not let Longhaul listen on TCP port ${port} (EACCES): pick a port above 1023` };
  const e = describeError(err);
  return { code: e.code, message: `cannot listen on TCP port ${port}: ${e.message}` };
}
