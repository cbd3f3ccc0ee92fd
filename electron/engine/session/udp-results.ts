/**
 * A UDP run's figures in the result (docs/udp.md): per stream, the receiver's counts with the tail
 * loss counted from the sender's last sequence number (numbers 1…lastSeq each arrived or were
 * lost), the sender's datagrams and shortfall; per direction, their sum.
 */
import type { StreamResult } from '../../contract/result.js';
import { sumUdp, withTail, type UdpCounts, type UdpStreamResult, type UdpTotal } from '../../contract/udp.js';
import type { StreamEnd } from '../../protocol/messages.js';
import type { SideSample } from '../data-plane/data-plane.js';

/** Stream `id`'s UDP figures from the sender's and the receiver's ends (the receiver's last sample when its end is missing); {} for TCP or with no receiver counts. */
export function udpStreamResult(
  senderEnds: readonly StreamEnd[] | null,
  receiverEnds: readonly StreamEnd[] | null,
  receiverLatest: SideSample | undefined,
  id: number,
): { udp?: UdpStreamResult } {
  const send = senderEnds?.find((e) => e.id === id && e.role === 'send');
  const receive = receiverEnds?.find((e) => e.id === id && e.role === 'receive');
  const counts: UdpCounts | undefined = receive?.udp?.counts ?? receiverLatest?.udp?.find((e) => e[0] === id)?.[1];
  if (!counts) return {}; // TCP, or a receiver that reported nothing: what arrived is unknown
  const lastSeq = send?.udp?.lastSeq ?? null;
  return {
    udp: {
      ...withTail(counts, lastSeq),
      lastSeq,
      sentDatagrams: send ? send.completions : null,
      shortBytes: send?.udp?.shortBytes ?? null,
      sendErrors: send?.udp?.sendErrors ?? null,
      // The socket's drops happened before the receiver's count, so they are among the lost (never more).
      receiverDrops: receive?.udp?.socketDrops !== undefined ? Math.min(receive.udp.socketDrops, withTail(counts, lastSeq).lost) : null,
    },
  };
}

/** The streams' UDP counts summed, with the receiving PC's drops when every stream's are known ({} for TCP). */
export function udpTotal(streams: readonly StreamResult[]): { udp?: UdpTotal } {
  const udp = streams.flatMap((s) => (s.udp ? [s.udp] : []));
  const sum = sumUdp(udp.map(({ datagrams, bytes, lost, outOfOrder, duplicates, jitterMs }) => ({ datagrams, bytes, lost, outOfOrder, duplicates, jitterMs })));
  if (!sum) return {};
  const drops = udp.map((s) => s.receiverDrops ?? null);
  return { udp: { ...sum, receiverDrops: drops.every((d): d is number => d !== null) ? drops.reduce((a, d) => a + d, 0) : null } };
}
