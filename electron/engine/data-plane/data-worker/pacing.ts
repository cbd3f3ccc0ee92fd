/**
 * `--bitrate` on one sending stream: the kernel's cap where the OS has one (Linux
 * SO_MAX_PACING_RATE, which TCP honours by itself since 4.13), else Longhaul's own token
 * bucket in whichever byte loop moves the stream (the native loop's lh_pacer.h, Node's
 * TokenBucket). Either way the stream says which, and why not the kernel.
 */
import { PACING_KERNEL, PACING_OWN, type StreamPacing } from '../../../contract/pacing-info.js';
import type { NativeApi } from '../../../native/native-api.js';

/** `LONGHAUL_PACING=own` makes Linux pace with Longhaul's own loop too (tests of that loop run here). */
const FORCE_OWN_ENV = 'LONGHAUL_PACING';

function own(reason: string): StreamPacing {
  return { mechanism: PACING_OWN, reason, kernelCapBytesPerSec: null };
}

/** Why this OS has no per-socket pacing cap, in words for the result. */
function noKernelPacingReason(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'linux') return 'this build of the native addon cannot set SO_MAX_PACING_RATE';
  const name = platform === 'win32' ? 'Windows' : platform === 'darwin' ? 'macOS' : platform;
  return `${name} has no per-socket pacing cap (SO_MAX_PACING_RATE is Linux's)`;
}

/**
 * Pace the stream on `fd` at `bitsPerSec` of payload: try the kernel's cap, else say the
 * byte loop must pace. Never throws: a refusal is recorded as the reason.
 */
export function applyPacing(api: NativeApi | null, fd: number | null, bitsPerSec: number, env: NodeJS.ProcessEnv = process.env): StreamPacing {
  if (env[FORCE_OWN_ENV] === 'own') return own(`${FORCE_OWN_ENV}=own asked for Longhaul's own pacing`);
  if (!api) return own('the native addon is not loaded, so the kernel cannot be asked to pace');
  if (!api.maxPacingRate) return own(noKernelPacingReason());
  if (fd === null) return own('the socket has no descriptor here');
  const bytesPerSec = Math.max(1, Math.round(bitsPerSec / 8));
  try {
    api.maxPacingRate.set(fd, bytesPerSec);
  } catch (err) {
    return own(`the kernel refused SO_MAX_PACING_RATE: ${(err as Error).message}`);
  }
  let cap: number | null = null;
  try {
    cap = api.maxPacingRate.get(fd);
  } catch {
    cap = null; // set but not readable: the TCP_INFO pacing rate still tells
  }
  return { mechanism: PACING_KERNEL, reason: null, kernelCapBytesPerSec: cap };
}
