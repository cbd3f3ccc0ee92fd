/**
 * What a UDP stream's receiver counts (issue 38), per interval and in total, under iperf3's
 * conventions so the two read the same: datagrams by sequence number, loss as the sequence
 * numbers that never arrived, jitter as RFC 3550 §6.4.1 computes it (the same estimator as
 * iperf3's), in milliseconds.
 */

export interface UdpCounts {
  /** Datagrams that arrived and were counted (each sequence number once). */
  datagrams: number;
  /** Their payload bytes, UDP payload (the header Longhaul or iperf3 writes included, as iperf3 counts). */
  bytes: number;
  /** Sequence numbers expected but not (yet) seen: gaps below the highest one seen, less late arrivals. */
  lost: number;
  /** Datagrams that arrived after a higher sequence number (filling a gap counted as lost). */
  outOfOrder: number;
  /** Datagrams whose sequence number had already arrived. */
  duplicates: number;
  /** RFC 3550 interarrival jitter at the end of the span, milliseconds; null before two datagrams arrived. */
  jitterMs: number | null;
}

/** Lost over expected (lost + arrived), as iperf3's "Lost/Total" percentage; null when nothing was expected. */
export function lossShare(c: Pick<UdpCounts, 'datagrams' | 'lost'>): number | null {
  const expected = c.datagrams + c.lost;
  return expected > 0 ? c.lost / expected : null;
}
