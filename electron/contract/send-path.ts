/**
 * Which call moved a sending stream's bytes into its kernel (`EndView.sendPath`, the convention
 * "send path"; docs/results.md, "Send path"). Its words are in send-path-text.ts.
 *
 * - `copy`: send()/write() from a buffer in the process: the kernel copies every byte from user
 *   memory into socket buffers (Longhaul's default, as iperf3's).
 * - `sendfile`: `-Z, --zerocopy` on Linux: sendfile(2) from a memory file (memfd) holding the payload
 *   pattern, as iperf3 -Z: the kernel takes the file's pages into the socket without the copy from
 *   user space. It changes the sender's CPU per byte, not what the receiver copies: on loopback the
 *   receiver's copy bounds the rate either way (docs/data-path.md, "Zero-copy sender").
 */
export const SEND_PATHS = ['copy', 'sendfile'] as const;

/** How a sending stream end handed its bytes to the kernel (see the file's comment). */
export type SendPath = (typeof SEND_PATHS)[number];

/** One sending stream end's path as its worker reports it; `reason`: why it copied when -Z was asked (null otherwise). */
export interface StreamSendPath {
  path: SendPath;
  reason: string | null;
}

/** The longest reason a stream end may give for copying, characters (the control channel refuses longer; the worker cuts it here). */
export const SEND_PATH_REASON_MAX_CHARS = 300;

/** The result's field name for -Z when it was asked and not honoured (`unavailable`, with the reason). */
export const ZERO_COPY_FIELD = 'sendPath' as const;
