/**
 * A UDP run's verdict per direction (issue 38; docs/udp.md), from the counts alone: UDP has no
 * window, no retransmits and no congestion control, so the question is whether the asked rate
 * (-b per stream × streams) left the sender and arrived.
 *
 * - the sending PC fell short (its pacer wrote off more than SHORT_SHARE of the schedule): the
 *   sender's PC, not the path, set the rate: `cpu-limited/udp-sender-short`;
 * - else more than LOSS_SHARE of the datagrams were lost: through the link emulator, where its relay
 *   lost at least half of them itself (its sockets' buffers full), this PC's emulator set the loss:
 *   `emulator-limited/fell-behind`; where the receiving PC's OS counted at
 *   least half of them dropped at its own sockets (their buffers full: Linux's per-socket drops),
 *   the receiving PC set the loss: `receiver-limited/udp-socket-full`; else (the path dropped them,
 *   or the receiving OS does not say) `loss-limited/udp-dropped`;
 * - else the asked rate arrived: `application-limited/udp-carried` (the rate is the one asked; what
 *   the path could carry is higher or equal).
 */
import { fig } from '../../contract/finding.js';
import type { DiagnosisFinding, Side, StreamResult, TotalResult } from '../../contract/result.js';
import type { UdpRelayDirectionInfo } from '../../contract/link-info.js';
import { otherSide } from '../../contract/direction.js';
import { lossShare } from '../../contract/udp.js';
import { withDetail } from '../../contract/detail-text/index.js';

/** A sender that could not send this share of its schedule in time fell short (the pacer's ±2 % target is iperf3-like accuracy). */
export const SHORT_SHARE = 0.02;
/** Loss above this share is the verdict (iperf3 users' usual threshold for "the path carries it"; --udp-ramp's default). */
export const LOSS_SHARE = 0.01;

/** The UDP finding of one direction; `base` is the limiter's finding, whose numbers are kept. */
export function udpDiagnosis(
  total: TotalResult,
  streams: readonly StreamResult[],
  askedPerStream: number,
  sender: Side,
  base: DiagnosisFinding,
  relay: UdpRelayDirectionInfo | null = null,
): DiagnosisFinding {
  const sent = streams.reduce((a, s) => a + (s.send?.bytes ?? 0), 0);
  const short = streams.reduce((a, s) => a + (s.udp?.shortBytes ?? 0), 0);
  const shortShare = sent + short > 0 ? short / (sent + short) : 0;
  const counts = total.udp;
  const loss = counts ? lossShare(counts) : null;
  const asked = askedPerStream * Math.max(1, streams.length);
  const figures = {
    ...base.figures,
    pacedRate: fig(asked, 'bit/s', 'given'),
    ...(total.bitsPerSecond !== null ? { measured: fig(total.bitsPerSecond, 'bit/s', 'measured') } : {}),
    // Lost + arrived: the numbers the senders used, so "12 % of 1,000 datagrams lost" reads right.
    ...(counts ? { datagrams: fig(counts.datagrams + counts.lost, 'count', 'measured') } : {}),
    ...(loss !== null ? { lossRatio: fig(loss, 'share', 'measured') } : {}),
    ...(counts?.jitterMs != null ? { jitter: fig(counts.jitterMs / 1000, 's', 'measured') } : {}),
    senderShortShare: fig(shortShare, 'share', 'measured'),
    ...(counts?.receiverDrops != null ? { receiverDrops: fig(counts.receiverDrops, 'count', 'measured') } : {}),
  };
  const numbers = { ...base.numbers, pacedBitsPerSecond: asked, lossRatio: loss };
  const facts = { ...base.facts, senderSide: sender };
  if (shortShare > SHORT_SHARE) {
    return withDetail({ ...base, verdict: 'cpu-limited', case: 'cpu-limited/udp-sender-short', side: sender, figures, numbers, facts, notes: undefined });
  }
  if (loss !== null && loss > LOSS_SHARE) {
    const own = relay?.emulatorDropped ?? null;
    if (counts && own !== null && own > 0 && own * 2 >= counts.lost) {
      const emulator = {
        signs: [{ kind: 'dropped' as const, datagrams: own, share: own / Math.max(1, counts.lost) }],
        relay: 'js' as const,
        relayReason: "UDP datagrams are relayed by Node's sockets",
      };
      return withDetail({
        ...base,
        verdict: 'emulator-limited',
        case: 'emulator-limited/fell-behind',
        side: sender,
        figures,
        numbers,
        facts: { ...facts, emulator },
        notes: [],
      });
    }
    const drops = counts?.receiverDrops ?? null;
    if (counts && drops !== null && drops * 2 >= counts.lost) {
      const receiver = otherSide(sender);
      return withDetail({
        ...base,
        verdict: 'receiver-limited',
        case: 'receiver-limited/udp-socket-full',
        side: receiver,
        figures,
        numbers,
        facts,
        notes: undefined,
      });
    }
    return withDetail({ ...base, verdict: 'loss-limited', case: 'loss-limited/udp-dropped', side: sender, figures, numbers, facts, notes: undefined });
  }
  return withDetail({
    ...base,
    verdict: 'application-limited',
    case: 'application-limited/udp-carried',
    side: sender,
    figures,
    numbers,
    facts,
    notes: undefined,
  });
}
