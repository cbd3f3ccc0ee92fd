/**
 * Window-limited (the receiver's advertised window sets the rate) and its two look-alikes:
 * a window that merely fills a bottleneck's queue (the link is the limit), and a receiver whose
 * reading application did not keep up (receiver-limited: its window stayed below what its buffer allowed).
 *
 * The window sets the rate when measured ≈ window ÷ RTT, with the window the sender saw (snd_wnd)
 * and the RTT measured over the same readings, WHATEVER share of time the kernel counted as
 * rwnd-limited: a paced sender (BBR) spreads a small window over the round trip and is rarely
 * *blocked* by it. On the WAN harness (20 Mbit/s, 40 ms, tcp_rmem capped at 32 KiB, BBR) the
 * rate was within 5 % of window ÷ RTT while the kernel counted 50 % rwnd-limited time.
 */
import { fig, type FindingNote } from '../../contract/finding.js';
import { BINDING_FACTOR, boundsAreTautological, isLocalPath, WINDOW_SHARE, type RuleVerdict, type VerdictContext } from './context.js';

/** Measured within this fraction of window ÷ RTT: the window sets the rate (RTT noise and ACK timing make a few % common). */
const WINDOW_RATE_TOLERANCE = 0.15;
/** The congestion window may sit this much below the receive window and the receive window still be the smaller bound (cwnd samples lag). */
const CWND_SLACK = 1.1;
/** The RTT must exceed the path's minimum by this factor to count as a standing queue. */
const QUEUE_RTT_FACTOR = 1.2;
/**
 * Linux advertises about half its receive buffer (the rest is overhead, tcp_adv_win_scale), so a
 * receiver that keeps up advertises about rcvBuf ÷ 2. An advertised window below half of that
 * (rcvBuf ÷ 4) means the buffer held unread data: the reading application did not keep up.
 */
const RECEIVER_WINDOW_SHARE_OF_BUFFER = 0.25;

/** Whether the receive window sets or blocks the rate. */
function windowSetsRate(c: VerdictContext): { byRate: boolean; byTimers: boolean } {
  const { i, measured, numbers } = c;
  const cap = numbers.windowBitsPerSecond;
  const smaller = i.cwndBytes === null || i.windowBytes === null || i.windowBytes <= i.cwndBytes * CWND_SLACK;
  const byRate = cap !== null && smaller && Math.abs(measured / cap - 1) <= WINDOW_RATE_TOLERANCE && !boundsAreTautological(c);
  const timers = c.rwndShare !== null || c.sndbufShare !== null;
  const byTimers = timers ? (c.rwndShare ?? 0) >= WINDOW_SHARE : cap !== null && smaller && measured * BINDING_FACTOR >= cap;
  return { byRate, byTimers };
}

/**
 * A window larger than the path's rate × minimum RTT makes the window "bind" while the excess
 * only waits in the bottleneck's queue: the RTT grows until window ÷ RTT equals the rate, and the
 * kernel counts rwnd-limited time at the link's rate (docs/measurements.md#standing-queue).
 */
function standingQueue(c: VerdictContext): RuleVerdict | null {
  const { i } = c;
  const minRtt = i.minRttSeconds ?? null;
  // On a local path an RTT above the minimum is scheduling and the reader's wake-ups, which a larger window does overcome.
  if (minRtt === null || isLocalPath(minRtt) || i.windowBytes === null) return null;
  const atMinRtt = (i.windowBytes * 8) / minRtt;
  if (c.rttSeconds < QUEUE_RTT_FACTOR * minRtt || atMinRtt < QUEUE_RTT_FACTOR * c.measured) return null;
  return {
    verdict: 'link-limited',
    case: 'link-limited/standing-queue',
    figures: { windowAtMinRtt: fig(atMinRtt, 'bit/s', 'model') },
    facts: { linkVia: 'window-queue' },
  };
}

/** The receiver's buffer allowed much more than it advertised: its application did not read fast enough. */
function receiverLagged(c: VerdictContext): RuleVerdict | null {
  const { i } = c;
  const buf = i.receiverBufferBytes ?? null;
  if (buf === null || i.windowBytes === null || i.receiverClampBytes != null) return null;
  if (i.windowBytes >= RECEIVER_WINDOW_SHARE_OF_BUFFER * buf) return null;
  const receiver = i.senderSide === 'controller' ? 'responder' : i.senderSide === 'responder' ? 'controller' : null;
  const cpu = receiver ? i.cpu?.[receiver] : null;
  return {
    verdict: 'receiver-limited',
    case: 'receiver-limited/app-lagged',
    figures: { receiveBuffer: fig(buf, 'B', 'tcp_info'), ...(cpu ? { cpuShareOfCore: fig(cpu.shareOfOneCore, 'share', 'cpu') } : {}) },
    ...(receiver ? { side: receiver } : {}),
  };
}

/** Window-limited, receiver-limited, or link-limited behind a standing queue; null when the window does not bind. */
export function windowRule(c: VerdictContext): RuleVerdict | null {
  const { byRate, byTimers } = windowSetsRate(c);
  if (!byRate && !byTimers) return null;
  const queued = standingQueue(c);
  if (queued) return queued;
  const lagged = receiverLagged(c);
  if (lagged) return lagged;
  const { i, numbers } = c;
  const cap = numbers.windowBitsPerSecond;
  // window ÷ RTT is a ceiling only if the RTT sample is representative; when the measured rate
  // beats it by more than noise, the RTT varied (queueing, a noisy loopback) and only the kernel's timers can tell.
  const capHolds = cap !== null && i.windowBytes !== null && c.measured <= cap * (1 + WINDOW_RATE_TOLERANCE) && c.measured * BINDING_FACTOR >= cap;
  const notes: FindingNote[] = [...(i.windowScale === 0 ? (['window-scale-zero'] as const) : []), ...(capHolds ? [] : (['rtt-varied'] as const))];
  return {
    verdict: 'window-limited',
    case: i.windowRequestedBytes != null ? 'window-limited/requested' : 'window-limited/os-receive-buffer',
    ...(notes.length ? { notes } : {}),
    // A paced sender is rarely blocked by the window that sets its rate: the kernel's count stays under the rule's share.
    ...(c.rwndShare !== null && c.rwndShare < WINDOW_SHARE ? { facts: { rarelyBlocked: true } } : {}),
  };
}
