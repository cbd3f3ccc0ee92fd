/**
 * `--bitrate` on one sending stream: the kernel's cap where the OS has one (Linux
 * SO_MAX_PACING_RATE, which TCP honours by itself since 4.13), else Longhaul's own token
 * bucket in whichever byte loop moves the stream (the native loop's lh_pacer.h, Node's
 * TokenBucket). Either way the stream says which, and why not the kernel.
 */
import { PACING_KERNEL, PACING_OWN, type StreamPacing } from '../../../contract/pacing-info.js';
import type { DataPath } from '../../../native/data-path.js';
import type { NativeApi } from '../../../native/native-api.js';

function own(reason: string): StreamPacing {
  return { mechanism: PACING_OWN, reason, kernelCapBytesPerSec: null };
}

/**
 * Pace the stream on `fd` at `bitsPerSec` of payload: try the kernel's cap where the data path says
 * it can be asked (native/data-path.ts), else say the byte loop must pace. Never throws: a refusal
 * is recorded as the reason.
 */
export function applyPacing(api: NativeApi | null, fd: number | null, bitsPerSec: number, path: DataPath['pacing']): StreamPacing {
  // The data path says whether the kernel can be asked on this PC (and why not).
  if (path.mode === 'own' || !api?.maxPacingRate) return own(path.reason ?? 'the kernel cannot be asked to pace here');
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
