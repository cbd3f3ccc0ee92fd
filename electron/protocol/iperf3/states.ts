/**
 * iperf3's control protocol as its peers speak it (esnet/iperf 3.x, src/iperf_api.h):
 * one TCP connection, opened with a 37-byte cookie; then one signed byte per state
 * change, and two JSON documents each way, each behind a 4-byte big-endian length.
 *
 *   client                                   server
 *   cookie (37 B) ─────────────────────────►
 *                ◄───────────────────────── PARAM_EXCHANGE (9)
 *   params JSON ───────────────────────────►
 *                ◄───────────────────────── CREATE_STREAMS (10)
 *   N data connections, each: cookie, then payload once running
 *                ◄───────────────────────── TEST_START (1), TEST_RUNNING (2)
 *   … data (client sends; -R: server sends; --bidir: both) …
 *   TEST_END (4) ──────────────────────────►
 *                ◄───────────────────────── EXCHANGE_RESULTS (13)
 *   results JSON ──────────────────────────►
 *                ◄───────────────────────── results JSON
 *                ◄───────────────────────── DISPLAY_RESULTS (14)
 *   IPERF_DONE (16) ───────────────────────►
 *
 * Either side may instead send CLIENT_TERMINATE (12) / SERVER_TERMINATE (11); a server
 * turns a second client away with ACCESS_DENIED (-1), and reports a failure with
 * SERVER_ERROR (-2) followed by two 4-byte big-endian numbers (its i_errno and errno).
 */

/** The state bytes, as signed values. */
export const IPERF3_STATE = {
  TEST_START: 1,
  TEST_RUNNING: 2,
  TEST_END: 4,
  PARAM_EXCHANGE: 9,
  CREATE_STREAMS: 10,
  SERVER_TERMINATE: 11,
  CLIENT_TERMINATE: 12,
  EXCHANGE_RESULTS: 13,
  DISPLAY_RESULTS: 14,
  IPERF_DONE: 16,
  ACCESS_DENIED: -1,
  SERVER_ERROR: -2,
} as const;

type Iperf3StateName = keyof typeof IPERF3_STATE;

const NAMES = new Map<number, Iperf3StateName>((Object.entries(IPERF3_STATE) as [Iperf3StateName, number][]).map(([name, value]) => [value, name]));

/** The name of a state byte (read as signed), or null for a byte iperf3 never sends. */
export function stateName(value: number): Iperf3StateName | null {
  return NAMES.get(value) ?? null;
}

/** Bytes of the cookie: 36 characters of iperf3's alphabet and a NUL. */
export const COOKIE_BYTES = 37;

/** The port iperf3 uses when none is given (in the contract: the app's forms need it too). */

/**
 * Caps on the two JSON documents. Parameters: 8 KiB, as iperf3 itself caps them
 * (MAX_PARAMS_JSON_STRING). A client's results: one small object per stream (under
 * 200 bytes each for 128 streams with both directions). A server's results may carry
 * its whole output (--get-server-output), hence the larger cap on that side.
 */
export const MAX_PARAMS_JSON_BYTES = 8 * 1024;
export const MAX_CLIENT_RESULTS_JSON_BYTES = 256 * 1024;
export const MAX_SERVER_RESULTS_JSON_BYTES = 8 * 1024 * 1024;

/**
 * iperf3's i_errno values a Longhaul server sends after SERVER_ERROR. The client
 * prints its own text for the number (iperf_error.c), so each was chosen for that text.
 */
export const IPERF3_ERRNO = {
  /** "an option you are trying to set is not implemented yet": SCTP tests, bursts, -b 0 with -u. */
  IEUNIMP: 13,
  /** "block size invalid": a UDP datagram size out of range. */
  IEUDPBLOCKSIZE: 20,
  /** "unable to start stream listener": the UDP port is taken by another program. */
  IESTREAMLISTEN: 202,
  /** "test authorization failed": an authentication token, which Longhaul does not check. */
  IEAUTHTEST: 142,
  /** "number of parallel streams too large". */
  IENUMSTREAMS: 6,
  /** "block size too large". */
  IEBLOCKSIZE: 7,
  /** "test duration too long". */
  IEDURATION: 5,
  /** "socket buffer size too large". */
  IEBUFSIZE: 8,
  /** "unable to receive parameters from client". */
  IERECVPARAMS: 114,
  /** "received an unknown control message". */
  IEMESSAGE: 110,
  /** "unable to receive results from client/server". */
  IERECVRESULTS: 117,
  /** "unable to create a new stream". */
  IECREATESTREAM: 200,
} as const;

/**
 * iperf3's id of the k-th stream (0-based, in the order the server accepted them):
 * 1, then 3, 4, 5… (iperf_add_stream skips 2 and keeps it for compatibility).
 */
export function iperfStreamId(index: number): number {
  return index === 0 ? 1 : index + 2;
}

/** The 0-based stream index of an iperf3 stream id, or null for an id no stream has. */
export function streamIndexOf(iperfId: number, streamCount: number): number | null {
  const index = iperfId === 1 ? 0 : iperfId - 2;
  return Number.isInteger(iperfId) && iperfId !== 2 && index >= 0 && index < streamCount ? index : null;
}
