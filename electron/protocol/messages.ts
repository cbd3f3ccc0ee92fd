/**
 * Control-channel messages (protocol version 1). Every frame is one JSON object
 * with a `type`; each type has a schema, and anything that fails it is a
 * `LH_ERR_BAD_MESSAGE`, answered with an `error` frame and a close.
 */
import { z } from 'zod';
import { runParamsSchema } from './run-params.js';
import { ProtocolError } from '../util/errors.js';
import { printable } from '../util/printable.js';
import { peerText } from './peer-text.js';
import { sampleTcpSchema, socketReportSchema } from './tcp-schemas.js';
import { cpuUseSchema } from './cpu-schema.js';
import { SEND_PATHS, SEND_PATH_REASON_MAX_CHARS } from '../contract/send-path.js';

export const PROTOCOL_VERSION = 1;

const errorCode = z
  .string()
  .regex(/^LH_ERR_[A-Z_]+$/)
  .max(64);

const helloSchema = z.object({
  type: z.literal('hello'),
  protocol: z.number().int().min(1),
  software: peerText(200),
  hostname: peerText(255),
  capabilities: z.array(z.string().max(64)).max(64),
  /** The sender's OS (`os.platform()`, `os.release()`): the advice names settings for the partner's OS. Optional: older peers do not send it. */
  os: z.object({ platform: peerText(32), release: peerText(128) }).optional(),
});

const paramsMessageSchema = z.object({
  type: z.literal('params'),
  /** 128-bit run cookie, hex; repeated as the first bytes of every data connection. */
  cookie: z.string().regex(/^[0-9a-f]{32}$/),
  params: runParamsSchema,
});

/** Per-side cumulative counters at one tick: [streamId, bytes, completions]. */
const sampleStreamSchema = z.tuple([
  z.number().int().min(0).max(255),
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
]);

/** A UDP receiver's counts (contract/udp.ts UdpCounts). */
const udpCountsSchema = z
  .object({
    datagrams: z.number().int().min(0),
    bytes: z.number().int().min(0),
    lost: z.number().int().min(0),
    outOfOrder: z.number().int().min(0).nullable(),
    duplicates: z.number().int().min(0).nullable(),
    jitterMs: z.number().min(0).nullable(),
  })
  .strict();

const sampleMessageSchema = z.object({
  type: z.literal('sample'),
  /** Tick number: this sample closes interval `index` (1-based). */
  index: z.number().int().min(1).max(10_000_000),
  /** Seconds since this side's start, by its own monotonic clock. */
  t: z.number().min(0).max(1e7),
  final: z.boolean(),
  streams: z.array(sampleStreamSchema).max(256),
  /** Optional: TCP_INFO per local stream at this tick (absent without the native addon). */
  tcp: sampleTcpSchema.optional(),
  /** Optional, UDP runs: each local receiving stream's cumulative counts at this tick. */
  udp: z
    .array(z.tuple([z.number().int().min(0).max(255), udpCountsSchema]))
    .max(256)
    .optional(),
  /**
   * Optional, the first sample only: this side read its first byte this many seconds before its
   * clock started (the start message was handled late); the first interval began there.
   */
  from: z.number().min(-60).max(0).optional(),
});

const streamEndSchema = z.object({
  id: z.number().int().min(0).max(255),
  role: z.enum(['send', 'receive']),
  bytes: z.number().int().min(0),
  completions: z.number().int().min(0),
  /** Seconds since start of the first and last byte (receive) or first and last write (send); null if none. */
  firstT: z.number().nullable(),
  lastT: z.number().nullable(),
  error: z.object({ code: errorCode, message: peerText(1000) }).nullable(),
  /** Optional: this end's socket as set up (buffers, MSS, window scale). */
  socket: socketReportSchema.optional(),
  /** Optional: which byte loop moved this end's bytes ('native': the addon's thread; 'node': Node's socket). */
  io: z.enum(['native', 'node']).optional(),
  /**
   * Optional, a sender's: which call moved its bytes into the kernel (contract/send-path.ts), and why -Z
   * was not honoured when it was asked and the end copied (null otherwise). Older peers leave it out.
   */
  sendPath: z
    .object({ path: z.enum(SEND_PATHS), reason: peerText(SEND_PATH_REASON_MAX_CHARS).nullable() })
    .strict()
    .optional(),
  /** Optional: a paced sender's pacing (`--bitrate`): the kernel's cap or Longhaul's own, and why not the kernel. */
  pacing: z
    .object({
      mechanism: z.enum(['kernel SO_MAX_PACING_RATE', "Longhaul's own pacing"]),
      reason: peerText(300).nullable(),
      kernelCapBytesPerSec: z.number().min(0).nullable(),
    })
    .optional(),
  /** Optional, UDP runs: a sender's last sequence number and shortfall; a receiver's counts (contract/udp.ts). */
  udp: z
    .object({
      lastSeq: z.number().int().min(0).optional(),
      shortBytes: z.number().min(0).optional(),
      sendErrors: z.number().int().min(0).optional(),
      counts: udpCountsSchema.optional(),
      /** A receiver's: datagrams its OS dropped at the stream's socket, the buffer full (Linux); absent: the OS does not say. */
      socketDrops: z.number().int().min(0).optional(),
      /** A receiver's: its socket's SO_RCVBUF as the OS reports it, bytes (Linux: twice the request). */
      receiveBufferBytes: z.number().int().min(0).optional(),
    })
    .strict()
    .optional(),
});

/** An end's TCP settings as it read them (`net.ipv4.tcp_rmem` → `4096 131072 6291456`): dotted names, printable values, at most 32. */
const endSettingsSchema = z
  .record(
    z
      .string()
      .regex(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/i)
      .max(64),
    peerText(200),
  )
  .refine((o) => Object.keys(o).length <= 32, 'at most 32 settings');

const resultsMessageSchema = z.object({
  type: z.literal('results'),
  streams: z.array(streamEndSchema).max(256),
  partial: z.boolean(),
  reason: peerText(1000).nullable(),
  /** Optional: the sender's TCP settings, sent only to a peer whose hello announced `settings:in-results` (engine/session/partner-settings.ts). */
  settings: endSettingsSchema.optional(),
  /** Optional: the sender's CPU over the transfer (its process tree and native data threads); older peers do not send it. */
  cpu: cpuUseSchema.optional(),
});

const messageSchema = z.discriminatedUnion('type', [
  helloSchema,
  paramsMessageSchema,
  z.object({
    type: z.literal('params-ok'),
    /**
     * Where this run's data connections go, when not to the control port: a responder whose
     * data connections are owned by its native addon (Windows) listens for them on a port of
     * their own, with the run's window set before listen() (engine/data-plane/windows-owned-listener.ts).
     */
    dataPort: z.number().int().min(1).max(65535).optional(),
    /** UDP runs: each stream's port on the responder, [stream id, port] (engine/session/udp-session.ts). */
    udpPorts: z
      .array(z.tuple([z.number().int().min(0).max(255), z.number().int().min(1).max(65535)]))
      .max(256)
      .optional(),
  }),
  z.object({ type: z.literal('streams-ready') }),
  z.object({ type: z.literal('start') }),
  z.object({ type: z.literal('started') }),
  sampleMessageSchema,
  z.object({
    type: z.literal('stop'),
    reason: z.enum(['complete', 'user', 'error']),
    message: peerText(1000).nullable(),
    /** Why, as a stable code (LH_ERR_RESPONDER_LIMIT: a limit of the responder). Optional: older peers leave it out, and drop it. */
    code: errorCode.optional(),
    /**
     * The controller has what it needed and the bytes still in flight are worth nothing (the path's measurement,
     * engine/session/capacity-run.ts): stop reading and close now instead of draining. Optional: older peers drop it and drain.
     */
    cut: z.boolean().optional(),
  }),
  resultsMessageSchema,
  /** UDP runs: this side's senders are done, [stream id, last sequence number]: the peer's receivers count the tail and end. */
  z.object({
    type: z.literal('udp-end'),
    lastSeq: z.array(z.tuple([z.number().int().min(0).max(255), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)])).max(256),
  }),
  z.object({ type: z.literal('done') }),
  /**
   * The control channel's own round trip (protocol/control-channel.ts answers a ping with its pong in any
   * state, below the session): the path's RTT idle and under load beside TCP_INFO's. Sent only to a peer
   * that announced CONTROL_PING in hello (an older one would take it for a protocol fault).
   */
  z.object({ type: z.literal('ping'), id: z.number().int().min(0).max(0x7fffffff) }),
  z.object({ type: z.literal('pong'), id: z.number().int().min(0).max(0x7fffffff) }),
  z.object({ type: z.literal('error'), code: errorCode, message: peerText(1000) }),
]);

export type Message = z.infer<typeof messageSchema>;
export type MessageType = Message['type'];
export type MessageOf<T extends MessageType> = Extract<Message, { type: T }>;
export type StreamEnd = z.infer<typeof streamEndSchema>;

/** Validate one decoded frame. Throws `ProtocolError` naming the first bad field. */
export function parseMessage(value: unknown): Message {
  const r = messageSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue && issue.path.length ? issue.path.join('.') : 'message';
    // Keys and values the peer chose can appear in the issue: printable, like every peer string.
    throw new ProtocolError('LH_ERR_BAD_MESSAGE', `invalid control message: ${printable(where, 200)}: ${printable(issue?.message ?? 'malformed', 300)}`);
  }
  return r.data;
}
