/**
 * A run asked to pace (`--bitrate`) that carried about what it asked for: the pacing is the
 * limit, by construction, whatever the timers say (a kernel-paced socket is never
 * "application-limited" to TCP_INFO: it always has data queued). The verdict is
 * application-limited with the mechanism named, and advice names --bitrate, not a buffer.
 * A run that carried far less than it asked for met another limit first: the other
 * verdicts decide it. One that carried more is paced only where the kernel held the cap
 * (its TCP_INFO pacing rate never above it): the excess is the first burst, the initial
 * window the kernel sends before pacing starts (10 × 64 KiB on loopback: 2.25× a 2 s run
 * at -b 1M, measured).
 */
import { PACING_KERNEL, type PacingInfo } from '../../contract/pacing-info.js';
import { fig } from '../../contract/finding.js';
import type { DiagnosisFinding, Side } from '../../contract/result.js';
import { withDetail } from '../../contract/detail-text/index.js';

/** Measured ÷ asked (per stream × streams) at or above this: the pacing held the rate. */
const PACED_MIN_SHARE = 0.8;
/** Above this the senders were not held to the asked rate (it did not apply): no pacing verdict. */
const PACED_MAX_SHARE = 1.25;

/** How the side that sent was paced (`kernel SO_MAX_PACING_RATE`, `unknown`), or null when it did not say. */
function mechanismOf(pacing: PacingInfo | undefined, sender: Side): string | null {
  return pacing?.sides.find((x) => x.side === sender)?.mechanism ?? null;
}

/** True when the side that sent was paced by the kernel and its TCP_INFO pacing rate never rose above `asked`. */
function kernelHeld(pacing: PacingInfo | undefined, sender: Side, asked: number): boolean {
  const side = pacing?.sides.find((x) => x.side === sender);
  return side?.mechanism === PACING_KERNEL && side.kernelPacingBitsPerSec !== null && side.kernelPacingBitsPerSec <= asked * (1 + 1e-6);
}

/**
 * The paced diagnosis of one direction, or null when the run was unpaced or carried less than
 * PACED_MIN_SHARE (or more than PACED_MAX_SHARE, unless the kernel held the cap) of what it asked for. `base` is the limiter's
 * diagnosis, whose numbers (RTT, windows) are kept.
 */
export function pacedDiagnosis(
  asked: number | null | undefined,
  pacing: PacingInfo | undefined,
  sender: Side,
  streams: number,
  base: DiagnosisFinding,
): DiagnosisFinding | null {
  const measured = base.numbers.measuredBitsPerSecond;
  if (!asked || measured === null || streams < 1) return null;
  const ceiling = asked * streams;
  const share = measured / ceiling;
  const firstBurst = share > PACED_MAX_SHARE;
  if (share < PACED_MIN_SHARE || (firstBurst && !kernelHeld(pacing, sender, asked))) return null;
  return withDetail({
    ...base,
    verdict: 'application-limited',
    case: 'application-limited/paced',
    side: sender,
    figures: { ...base.figures, pacedRate: fig(ceiling, 'bit/s', 'given') },
    facts: { ...base.facts, pacing: { perStreamBitsPerSecond: asked, mechanism: mechanismOf(pacing, sender), ...(firstBurst ? { firstBurst } : {}) } },
    numbers: { ...base.numbers, pacedBitsPerSecond: ceiling },
  });
}
