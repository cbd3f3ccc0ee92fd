/**
 * Stable error codes for everything the engine, the CLI and the UI can report.
 * Match on `code`, never on the message: messages say what happened and what
 * to do, and may be reworded. In the contract so the UI can act on a code with
 * the type checker's help (the engine's errors are in util/errors.ts).
 */
export type LonghaulErrorCode =
  | 'LH_ERR_BAD_ARGUMENT'
  | 'LH_ERR_BAD_FRAME'
  | 'LH_ERR_FRAME_TOO_LARGE'
  | 'LH_ERR_BAD_MESSAGE'
  | 'LH_ERR_UNEXPECTED_MESSAGE'
  | 'LH_ERR_PROTOCOL_VERSION'
  | 'LH_ERR_TIMEOUT'
  | 'LH_ERR_PEER_GONE'
  /** The partner's figure broke a bound this side knows (it claimed to receive more than this side sent): rejected, this side's own kept. */
  | 'LH_ERR_PEER_CLAIM'
  | 'LH_ERR_BUSY'
  | 'LH_ERR_REFUSED'
  | 'LH_ERR_PARAMS_REJECTED'
  /** A limit of the responder (--max-seconds, --max-bytes) ended the run: it stopped reading and closed the data connections. */
  | 'LH_ERR_RESPONDER_LIMIT'
  | 'LH_ERR_DATA_STREAM'
  | 'LH_ERR_WORKER'
  | 'LH_ERR_STOPPED'
  | 'LH_ERR_IO'
  /** A multi-peer run did not start: one peer failed, or was not ready in time, before the common start. */
  | 'LH_ERR_GROUP_START'
  /** A report file already exists and --force was not given. */
  | 'LH_ERR_FILE_EXISTS'
  /** A file given as a saved result is not a valid longhaul.result/1 document. */
  | 'LH_ERR_BAD_RESULT'
  /** A file given to resume is not a valid longhaul.sweep/1 document. */
  | 'LH_ERR_BAD_SWEEP'
  /** A schedule's plan (its file, or a request) breaks a rule: the line or field and the reason are in the message. */
  | 'LH_ERR_BAD_PLAN'
  // The app (UI host): a feature this build does not have, a result that does not exist.
  | 'LH_ERR_NOT_AVAILABLE'
  | 'LH_ERR_NOT_FOUND'
  // Pairing and trust (docs/security.md).
  /** This installation's key or certificate cannot be read. */
  | 'LH_ERR_IDENTITY'
  /** The other PC is not among the paired peers (either side). */
  | 'LH_ERR_NOT_PAIRED'
  /** A control connection did not start TLS (an older Longhaul, or not Longhaul at all). */
  | 'LH_ERR_TLS_REQUIRED'
  /** The TLS handshake failed or was not TLS 1.3. */
  | 'LH_ERR_TLS'
  /** The pairing code was wrong. */
  | 'LH_ERR_PAIRING_CODE'
  /** Too many wrong pairing codes: pairing is locked for a while. */
  | 'LH_ERR_PAIRING_LOCKED'
  /** The two ends saw different certificates or TLS sessions: something in between terminates TLS. */
  | 'LH_ERR_PAIRING_MITM'
  /** The responder is not accepting pairings (no code active). */
  | 'LH_ERR_PAIRING_CLOSED'
  // iperf3 interoperation (docs/iperf3.md).
  /** An iperf3 peer broke its protocol: an unknown state byte, a bad cookie, a JSON frame of the wrong shape or size. */
  | 'LH_ERR_IPERF3_PROTOCOL'
  /** An iperf3 peer asked for what Longhaul does not do (SCTP, authentication, an unpaced UDP test), or refused what Longhaul asked. */
  | 'LH_ERR_IPERF3_REFUSED'
  /** `listen --iperf3`: the UDP port an iperf3 client's UDP streams come to is held by another program. */
  | 'LH_ERR_IPERF3_UDP_PORT'
  /** An iperf3 server reported an error (SERVER_ERROR with its error number) or ended the test (SERVER_TERMINATE). */
  | 'LH_ERR_IPERF3_SERVER_ERROR';
