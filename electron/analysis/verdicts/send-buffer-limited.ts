/**
 * Send-buffer-limited: the sender's own send buffer, not the receiver, capped the data in
 * flight (Linux's sndbuf-limited timer). Names the sending side so the advice goes to it.
 */
import { pct, WINDOW_SHARE, type RuleVerdict, type VerdictContext } from './context.js';

export function sendBufferRule(c: VerdictContext): RuleVerdict | null {
  const s = c.sndbufShare;
  if (s === null || s < WINDOW_SHARE || s <= (c.rwndShare ?? 0)) return null;
  const who = c.i.senderSide ? `the sending PC (the ${c.i.senderSide})` : 'the sending PC';
  return {
    verdict: 'send-buffer-limited',
    case: 'send-buffer-limited/send-buffer',
    ...(c.i.senderSide ? { side: c.i.senderSide } : {}),
    sentence:
      `The send buffer of ${who} held it back ${pct(s)} of its busy time at RTT ${c.rtt}; measured ${c.m}: ` +
      `the sender's send buffer is the limit, not the receiver's window.`,
  };
}
