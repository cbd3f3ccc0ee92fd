/**
 * Application-limited, only with the mechanism shown: which side left the socket empty, and
 * for what share of its own active time (Linux busy time over each stream's active time; Windows'
 * RFC 4898 Snd time, which is sender-limited). A stream that finished its bytes is not idle.
 */
import { fig } from '../../contract/finding.js';
import { isFastLocal, pct, share, type RuleVerdict, type VerdictContext } from './context.js';
import { samePcUnmeasured } from './cpu-limited.js';

/** The sender kept data in flight less than this share of its active time: it idled. */
const BUSY_SHARE = 0.9;

export function applicationRule(c: VerdictContext, bounds: string): RuleVerdict | null {
  const { i } = c;
  const busy = share(i.busySeconds, i.transferSeconds);
  const senderIdle = share(i.senderLimitedSeconds, i.transferSeconds);
  const idle = senderIdle ?? (busy === null ? null : 1 - busy);
  if (idle === null || idle <= 1 - BUSY_SHARE) return null;
  const who = i.senderSide ? `the sending application (on the ${i.senderSide})` : 'the sending application';
  const measuredBy =
    senderIdle !== null
      ? `the OS counted it sender-limited (nothing to send) ${pct(idle)} of the stream's active time`
      : `the kernel had data in flight only ${pct(1 - idle)} of the stream's active time`;
  // On a sub-ms path at Gbit/s a sender that leaves the socket empty is usually waiting for a core.
  const local = isFastLocal(c);
  const cpu = !local
    ? ''
    : !i.cpu
      ? ' On a path this short at this rate, the sender waiting for CPU is the likely cause; CPU was not measured in this run.'
      : samePcUnmeasured(c)
        ? " Both ends ran on this PC: the sender waiting for a core it shares with the receiver and the kernel is the likely cause, but how busy this PC's cores were was not measured, so that is unknown."
        : '';
  const flag = i.appLimitedShare != null ? ` The kernel marked ${pct(i.appLimitedShare)} of its rate samples application-limited.` : '';
  return {
    verdict: 'application-limited',
    case: 'application-limited/sender-idle',
    figures: { senderIdleShare: fig(idle, 'share', senderIdle !== null ? 'tcp_info' : 'measured') },
    ...(i.senderSide ? { side: i.senderSide } : {}),
    sentence:
      `At RTT ${c.rtt} ${bounds || 'TCP'} would carry more than the measured ${c.m}, and ${who} left the socket empty: ` +
      `${measuredBy}: the application is the limit.${flag}${cpu}`,
  };
}
