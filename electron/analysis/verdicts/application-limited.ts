/**
 * Application-limited, only with the mechanism shown: which side left the socket empty, and
 * for what share of its own active time (Linux busy time over each stream's active time; Windows'
 * RFC 4898 Snd time, which is sender-limited). A stream that finished its bytes is not idle.
 */
import { fig } from '../../contract/finding.js';
import { isFastLocal, share, type RuleVerdict, type VerdictContext } from './context.js';
import { samePcUnmeasured } from './cpu-limited.js';

/** The sender kept data in flight less than this share of its active time: it idled. */
const BUSY_SHARE = 0.9;

export function applicationRule(c: VerdictContext): RuleVerdict | null {
  const { i } = c;
  const busy = share(i.busySeconds, i.transferSeconds);
  const senderIdle = share(i.senderLimitedSeconds, i.transferSeconds);
  const idle = senderIdle ?? (busy === null ? null : 1 - busy);
  if (idle === null || idle <= 1 - BUSY_SHARE) return null;
  // On a sub-ms path at Gbit/s a sender that leaves the socket empty is usually waiting for a core: say when its CPU is unknown.
  const cpuUnknown = !isFastLocal(c) ? null : !i.cpu ? 'not-measured' : samePcUnmeasured(c) ? 'pc-unmeasured' : null;
  return {
    verdict: 'application-limited',
    case: 'application-limited/sender-idle',
    figures: {
      senderIdleShare: fig(idle, 'share', senderIdle !== null ? 'tcp_info' : 'measured'),
      ...(i.appLimitedShare != null ? { appLimitedShare: fig(i.appLimitedShare, 'share', 'tcp_info') } : {}),
    },
    ...(i.senderSide ? { side: i.senderSide } : {}),
    ...(cpuUnknown ? { facts: { cpuUnknown } } : {}),
  };
}
