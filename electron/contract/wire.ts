/**
 * How much TCP payload a link's (wire) rate carries: every full segment of
 * `mssBytes` also carries 66 header bytes (Ethernet 14, IPv4 20, TCP with
 * timestamps 32), so a 4 Mbit/s link carries 4 × 1448 / 1514 ≈ 3.83 Mbit/s
 * of payload. One definition for the proxy's rate stage, the model ceilings,
 * the diagnosis and the Link screen (the renderer builds electron/contract/).
 */

/** Ethernet header (14) + IPv4 (20) + TCP with the timestamp option (32) per full segment. */
export const WIRE_OVERHEAD_BYTES = 66;
/** A 1500-byte MTU less IPv4, TCP and timestamp headers (what Linux uses). */
export const DEFAULT_MSS_BYTES = 1448;

/** Payload bits per wire bit for full-sized segments: 1448 / 1514 ≈ 0.956 with the defaults. */
export function payloadFraction(mssBytes = DEFAULT_MSS_BYTES, wireOverheadBytes = WIRE_OVERHEAD_BYTES): number {
  return mssBytes / (mssBytes + wireOverheadBytes);
}

/** Ethernet header (14) + IPv4 (20) + UDP (8) per datagram: a 1,460-byte datagram is a 1,502-byte frame (tbf counts the same). */
export const UDP_WIRE_OVERHEAD_BYTES = 42;

/** Payload bits per wire bit for datagrams of `datagramBytes` (UDP payload): 1,460 / 1,502 ≈ 0.972. */
export function udpPayloadFraction(datagramBytes: number): number {
  return datagramBytes / (datagramBytes + UDP_WIRE_OVERHEAD_BYTES);
}
