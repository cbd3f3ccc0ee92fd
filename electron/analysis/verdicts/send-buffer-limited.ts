/**
 * Send-buffer-limited: the sender's own send buffer, not the receiver, capped the data in
 * flight (Linux's sndbuf-limited timer). Names the sending side so the advice goes to it.
 */
import { WINDOW_SHARE, type RuleVerdict, type VerdictContext } from './context.js';

export function sendBufferRule(c: VerdictContext): RuleVerdict | null {
  const s = c.sndbufShare;
  if (s === null || s < WINDOW_SHARE || s <= (c.rwndShare ?? 0)) return null;
  return {
    verdict: 'send-buffer-limited',
    case: 'send-buffer-limited/send-buffer',
    ...(c.i.senderSide ? { side: c.i.senderSide } : {}),
  };
}
